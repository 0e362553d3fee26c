import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

export default defineConfig({
  plugins: [react()],
  build: {
    target: 'es2022',
    sourcemap: true,
    // sandbox-test.html is a test-only page for e2e/sandbox.spec.ts.
    rollupOptions: { input: { main: 'index.html', sandboxTest: 'sandbox-test.html' } },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 20_000,
  },
})
