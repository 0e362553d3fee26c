import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

export default defineConfig({
  plugins: [react()],
  build: {
    target: 'es2022',
    sourcemap: true,
    // Test-only pages for e2e specs and benchmarks (sandbox, inspector, canvas).
    rollupOptions: {
      input: {
        main: 'index.html',
        sandboxTest: 'sandbox-test.html',
        inspectorTest: 'inspector-test.html',
        canvasTest: 'canvas-test.html',
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 20_000,
  },
})
