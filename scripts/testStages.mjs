// Shared by scripts/test.mjs (`npm test`) and scripts/e2e.mjs (`npm run test:e2e`).
import { spawnSync } from 'node:child_process'
import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'

const DEFAULT_CHROMIUM = '/usr/bin/chromium'

function isExecutableFile(path) {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/**
 * Finds the system Chromium: `CHROMIUM_PATH` if set (a set but missing path counts as not
 * found, never as "look elsewhere"), else /usr/bin/chromium, else `chromium` on PATH.
 * @returns {{ path: string } | { path: null, reason: string }}
 */
export function findChromium(env = process.env, defaultPath = DEFAULT_CHROMIUM) {
  const explicit = env.CHROMIUM_PATH
  if (explicit) {
    return isExecutableFile(explicit)
      ? { path: explicit }
      : { path: null, reason: `CHROMIUM_PATH=${explicit} is not an executable file` }
  }
  if (isExecutableFile(defaultPath)) return { path: defaultPath }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutableFile(join(dir, 'chromium'))) return { path: join(dir, 'chromium') }
  }
  return { path: null, reason: `no CHROMIUM_PATH, no ${defaultPath}, no chromium on PATH` }
}

const rule = '='.repeat(78)

/** Prints a header, runs one command with inherited stdio, exits with its code on failure. */
export function runStage(title, command, args, env = process.env) {
  const shown = [command, ...args].join(' ')
  console.log(`\n${rule}\n>>> ${title}: ${shown}\n${rule}`)
  const started = Date.now()
  const result = spawnSync(command, args, { stdio: 'inherit', env })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (result.error) {
    console.error(`\n!!! ${title} could not start (${shown}): ${result.error.message}`)
    process.exit(1)
  }
  if (result.status !== 0) {
    const code = result.status ?? 1
    const why = result.signal ? `killed by ${result.signal}` : `exit code ${code}`
    console.error(`\n!!! ${title} FAILED (${why}) after ${seconds}s: ${shown}`)
    process.exit(code)
  }
  console.log(`--- ${title} passed in ${seconds}s`)
}

function banner(lines) {
  const bar = '#'.repeat(78)
  console.error(`\n${bar}\n${bar}\n${lines.map((l) => `###  ${l}`).join('\n')}\n${bar}\n${bar}\n`)
}

const HOW_TO_GET_CHROMIUM = [
  'Install it:  sudo apt-get install -y chromium',
  'or point to one:  CHROMIUM_PATH=/path/to/chromium npm test',
]

/**
 * Checks for Chromium before any stage runs. With E2E_REQUIRED=1 a missing browser is a
 * failure (exit 1) right away; otherwise the returned value says the e2e stage is skipped.
 */
export function checkChromium(env = process.env) {
  const found = findChromium(env)
  if (found.path) return found
  if (env.E2E_REQUIRED === '1') {
    banner([
      'E2E FAILED: Chromium not found, and E2E_REQUIRED=1.',
      `(${found.reason})`,
      ...HOW_TO_GET_CHROMIUM,
    ])
    process.exit(1)
  }
  console.error(`warning: Chromium not found (${found.reason}); the e2e stage will be skipped.`)
  return found
}

/**
 * Builds the app and runs Playwright against it, or prints the loud skip banner.
 * @returns whether the e2e tests ran
 */
export function runE2E(found, extraArgs = []) {
  if (!found.path) {
    banner([
      'E2E SKIPPED: Chromium not found, so the app was NOT tested in a browser.',
      `(${found.reason})`,
      ...HOW_TO_GET_CHROMIUM,
      'Set E2E_REQUIRED=1 to make a missing browser an error (CI does).',
    ])
    return false
  }
  console.log(`Chromium: ${found.path}`)
  const env = { ...process.env, CHROMIUM_PATH: found.path }
  // The test build: the app and its test-only pages (canvas-, inspector-, sandbox-test.html).
  runStage('build', 'npm', ['run', 'build:test'], env)
  runStage('e2e', 'npx', ['playwright', 'test', ...extraArgs], env)
  return true
}
