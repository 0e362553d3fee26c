import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium'

// E2E_PORT and E2E_DIST let several builds be tested side by side (default: dist on 4173).
const PORT = Number(process.env.E2E_PORT ?? 4173)
const DIST = process.env.E2E_DIST
const baseURL = `http://localhost:${PORT}`

export default defineConfig({
  testDir: 'e2e',
  outputDir: process.env.E2E_DIST ? `${process.env.E2E_DIST}-results` : 'test-results',
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: 'list',
  // Generous: CI machines are shared, and a busy one runs these several times slower.
  // Waiting longer never makes a failing test pass.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  // Serves the built `dist`: `npm test` and `npm run test:e2e` build first.
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort${DIST ? ` --outDir ${DIST}` : ''}`,
    url: baseURL,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
