/**
 * The system Chromium (Debian's package) and the flags this machine needs, for the e2e
 * tests and the benches alike. Playwright never downloads a browser here.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
