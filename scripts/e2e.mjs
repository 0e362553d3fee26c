// `npm run test:e2e [-- playwright args]`: the test build (`npm run build:test`: the app and its
// test-only pages), then Playwright in the system Chromium.
import { checkChromium, runE2E } from './testStages.mjs'

runE2E(checkChromium(), process.argv.slice(2))
