// `npm run test:e2e [-- playwright args]`: build, then Playwright in the system Chromium.
import { checkChromium, runE2E } from './testStages.mjs'

runE2E(checkChromium(), process.argv.slice(2))
