// `npm test`: lint (ESLint with each folder's import allow-list, the import-cycle check of
// .dependency-cruiser.cjs, Prettier), typecheck, unit tests, then the e2e tests in the system
// Chromium.
// Stops at the first failing stage with its exit code.
import { checkChromium, runE2E, runStage } from './testStages.mjs'

const chromium = checkChromium()
runStage('lint', 'npm', ['run', 'lint'])
runStage('typecheck', 'npm', ['run', 'typecheck'])
runStage('unit tests', 'npx', ['vitest', 'run'])
const ranE2E = runE2E(chromium)
console.log(ranE2E ? '\nnpm test: all stages passed.' : '\nnpm test: passed, but E2E SKIPPED.')
