/**
 * The first load, in real Chromium against the production build (`vite build`, no test
 * pages): the JavaScript index.html loads before it can run (gzip, goal 150 kB), and the
 * time from navigation start to the first interactive canvas on a cold load (a new browser
 * context each time: no HTTP cache, no IndexedDB, so the first visit's setup too):
 * - canvas ready: the first frame with React Flow's pane and a graph node laid out and visible;
 * - click answered: a click on that node has selected it (the node shows as selected), which
 *   needs the page's main thread free to take the click;
 * - a return visit: the graph run once, then the page loaded again (its HTTP cache and
 *   IndexedDB kept): canvas ready, and the timeline's first checkpoint listed.
 * Reference, measured in the same run and browser: a cold load of a blank document from the
 * same server (`/favicon.svg`, load event), so the ratio is what the app adds to any page.
 * With BASELINE_DIST set (another build, e.g. of the previous commit), it is measured too,
 * alternating with this one.
 * The initial JavaScript's reference, built in the same run with the same target and
 * tree-shaking: bench/floor, React and React Flow with the parts the canvas renders at once
 * around a toy graph. What the build has over it is Superstep's own shell.
 *
 *   Run: npx tsx bench/firstLoad.bench.ts   (builds into the temp folder first)
 *   or:  BENCH_DIST=/tmp/dist-x [BASELINE_DIST=/tmp/dist-old] npx tsx bench/firstLoad.bench.ts
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import type { Browser } from 'playwright-core'
import { build } from 'vite'
import { TREESHAKE } from '../vite.config'
import { launchChromium, startPreview, watchLongTasksScript, type LongTask } from './browser'
import { initialJs, kB } from './initialJs'

const RUNS = Number(process.env.RUNS ?? 7)
const GOAL_KB = 150

function productionBuild(): string {
  const outDir = join(tmpdir(), 'superstep-firstload')
  const vite = fileURLToPath(new URL('../node_modules/vite/bin/vite.js', import.meta.url))
  const root = fileURLToPath(new URL('..', import.meta.url))
  const args = [vite, 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir']
  const built = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' })
  if (built.status !== 0) throw new Error(`vite build failed (${built.status})`)
  return outDir
}

/**
 * Page script (a string: tsx would wrap inner functions in a `__name` helper): notes in
 * `window.__load` when the canvas is first ready (pane and a visible, measured graph node),
 * when the first pointer press came, and when a graph node first showed as selected.
 */
const WATCH_LOAD = `
  window.__load = {}
  const ready = () => {
    const pane = document.querySelector('.react-flow__pane')
    const node = document.querySelector('.react-flow__node[data-node-id]:not([data-node-id^="__"])')
    const box = node && node.getBoundingClientRect()
    if (pane && node && box.width > 0 && getComputedStyle(node).visibility === 'visible') {
      window.__load.ready = performance.now()
    } else requestAnimationFrame(ready)
  }
  requestAnimationFrame(ready)
  addEventListener('pointerdown', () => { window.__load.down ??= performance.now() }, true)
  new MutationObserver(() => {
    if (window.__load.selected === undefined && document.querySelector('.react-flow__node.selected'))
      window.__load.selected = performance.now()
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] })
`

/**
 * Page script for the return visit (the page loaded again after a run: HTTP cache and
 * IndexedDB kept): notes in `window.__back` when the timeline first lists a checkpoint.
 */
const WATCH_RETURN = `
  window.__back = {}
  const listed = () => {
    if (document.querySelector('[aria-label="Checkpoints"] [role="option"]'))
      window.__back.timeline = performance.now()
    else requestAnimationFrame(listed)
  }
  requestAnimationFrame(listed)
`

interface AppLoad {
  ready: number
  down: number
  selected: number
  /** Main-thread long tasks (over 50 ms) up to the answered click: count, summed blocking time. */
  long: number
  blocking: number
  /** The page's JavaScript fetched before the canvas was ready (workers not counted), gzip. */
  jsBeforeReady: number
  /** The return visit (after a run, the page loaded again): canvas ready, a checkpoint listed. */
  backReady: number
  backTimeline: number
}

/** Gzip size of each built file, asked by URL path. */
function gzipSizes(dist: string): (url: string) => number {
  const sizes = new Map<string, number>()
  return (url) => {
    const path = new URL(url).pathname.replace(/^\//, '')
    let size = sizes.get(path)
    if (size === undefined) {
      size = gzipSync(readFileSync(join(dist, path)), { level: 9 }).length
      sizes.set(path, size)
    }
    return size
  }
}

/** `window` as WATCH_LOAD leaves it. */
type Watched = { __load?: Partial<AppLoad>; __back?: { timeline?: number } }

async function coldApp(
  browser: Browser,
  base: string,
  gzipOf: (url: string) => number,
): Promise<AppLoad> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  try {
    const page = await context.newPage()
    page.on('pageerror', (e) => console.error('page error:', e.message))
    await page.addInitScript(WATCH_LOAD)
    await page.goto(base, { waitUntil: 'commit' })
    // Functions, not strings: the page's policy forbids eval, which a string predicate needs.
    await page.waitForFunction(() => (window as Watched).__load?.ready, null, { timeout: 60_000 })
    const node = page.locator('.react-flow__node[data-node-id]:not([data-node-id^="__"])').first()
    await node.click()
    await page.waitForFunction(() => (window as Watched).__load?.selected, null, {
      timeout: 30_000,
    })
    const load = (await page.evaluate('window.__load')) as Pick<
      AppLoad,
      'ready' | 'down' | 'selected'
    >
    const fetched = (await page.evaluate(
      `performance.getEntriesByType('resource').map((e) => [e.name, e.responseEnd])`,
    )) as [string, number][]
    const jsBeforeReady = fetched
      .filter(([url, end]) => /\.js$/.test(url) && !/\.worker-/.test(url) && end <= load.ready)
      .reduce((sum, [url]) => sum + gzipOf(url), 0)
    await page.evaluate(watchLongTasksScript(true))
    await page.waitForTimeout(50)
    const long = ((await page.evaluate('window.__long')) as LongTask[]).filter(
      ([start]) => start < load.selected,
    )
    const blocking = long.reduce((s, [, d]) => s + d - 50, 0)
    // The return visit: the graph run once, then the page loaded again.
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await page.waitForSelector('[aria-label="Run status"][data-phase="done"]', { timeout: 60_000 })
    await page.addInitScript(WATCH_RETURN)
    await page.reload({ waitUntil: 'commit' })
    await page.waitForFunction(() => (window as Watched).__back?.timeline, null, {
      timeout: 60_000,
    })
    const backReady = (await page.evaluate('window.__load.ready')) as number
    const backTimeline = (await page.evaluate('window.__back.timeline')) as number
    return { ...load, long: long.length, blocking, jsBeforeReady, backReady, backTimeline }
  } finally {
    await context.close()
  }
}

async function coldBlank(browser: Browser, base: string): Promise<number> {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(`${base}/favicon.svg`, { waitUntil: 'load' })
    return (await page.evaluate(
      `performance.getEntriesByType('navigation')[0].loadEventEnd`,
    )) as number
  } finally {
    await context.close()
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? NaN
}
const ms = (v: number) => `${v.toFixed(0)} ms`

/** bench/floor built like the app (see the header): its initial JavaScript, gzip bytes. */
async function floorBytes(): Promise<number> {
  const outDir = join(tmpdir(), 'superstep-floor')
  await build({
    configFile: false,
    root: fileURLToPath(new URL('floor', import.meta.url)),
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, target: 'es2022', rollupOptions: { treeshake: TREESHAKE } },
  })
  return initialJs(outDir).reduce((s, f) => s + f.gzip, 0)
}

const targets = [{ name: 'this build', dist: process.env.BENCH_DIST ?? productionBuild() }]
if (process.env.BASELINE_DIST) targets.push({ name: 'baseline', dist: process.env.BASELINE_DIST })

console.log('\nFirst load: initial JavaScript (index.html script and modulepreloads, gzip -9)')
for (const t of targets) {
  const files = initialJs(t.dist)
  const total = files.reduce((s, f) => s + f.gzip, 0)
  const ok = total / 1024 <= GOAL_KB ? 'within' : 'OVER'
  console.log(
    `  ${t.name.padEnd(11)} ${kB(total).padStart(6)} kB in ${files.length} files (goal ${GOAL_KB} kB: ${ok}, ${((total / 1024 / GOAL_KB) * 100).toFixed(0)}%)`,
  )
  for (const f of files.slice(0, 4)) console.log(`      ${kB(f.gzip).padStart(6)} kB  ${f.file}`)
}
{
  const floor = await floorBytes()
  const ours = initialJs(targets[0]!.dist).reduce((s, f) => s + f.gzip, 0)
  console.log(
    `  floor       ${kB(floor).padStart(6)} kB: React and React Flow with the canvas's parts (bench/floor)\n` +
      `  this build adds ${kB(ours - floor)} kB to it; the goal leaves ${kB(GOAL_KB * 1024 - floor)} kB`,
  )
}

const servers = await Promise.all(targets.map((t) => startPreview('/', t.dist)))
const browser = await launchChromium()
try {
  const runs = targets.map(() => ({ blank: [] as number[], loads: [] as AppLoad[] }))
  // A warm-up of each (the server's and the browser's own first-time costs), not counted.
  const gzipOf = targets.map((t) => gzipSizes(t.dist))
  for (const [k, s] of servers.entries()) await coldApp(browser, s.base, gzipOf[k]!)
  for (let i = 0; i < RUNS; i++) {
    // Alternating which goes first, so neither always meets a warmer machine.
    const order = [...servers.keys()]
    if (i % 2) order.reverse()
    for (const k of order) {
      runs[k]!.blank.push(await coldBlank(browser, servers[k]!.base))
      runs[k]!.loads.push(await coldApp(browser, servers[k]!.base, gzipOf[k]!))
    }
  }
  console.log(`\nFirst load: cold, a new browser context each time (median of ${RUNS})`)
  const readyOf = (k: number) => runs[k]!.loads.map((l) => l.ready)
  const rows: [string, (k: number) => string][] = [
    ['blank page (reference)', (k) => ms(median(runs[k]!.blank))],
    ['canvas ready', (k) => ms(median(readyOf(k)))],
    [
      '  against the blank page',
      (k) => `${(median(readyOf(k)) / median(runs[k]!.blank)).toFixed(1)}x`,
    ],
    ['click answered', (k) => ms(median(runs[k]!.loads.map((l) => l.selected)))],
    ['press to selected', (k) => ms(median(runs[k]!.loads.map((l) => l.selected - l.down)))],
    ['long tasks before it', (k) => String(median(runs[k]!.loads.map((l) => l.long)))],
    ['  their time over 50 ms', (k) => ms(median(runs[k]!.loads.map((l) => l.blocking)))],
    [
      'JS before ready (gzip)',
      (k) => `${kB(median(runs[k]!.loads.map((l) => l.jsBeforeReady)))} kB`,
    ],
    ['return visit: canvas ready', (k) => ms(median(runs[k]!.loads.map((l) => l.backReady)))],
    ['  a checkpoint listed', (k) => ms(median(runs[k]!.loads.map((l) => l.backTimeline)))],
  ]
  console.log(`  ${''.padEnd(26)}${targets.map((t) => t.name.padStart(14)).join('')}`)
  for (const [label, cell] of rows)
    console.log(`  ${label.padEnd(26)}${targets.map((_, k) => cell(k).padStart(14)).join('')}`)
  console.log(
    '  canvas ready: the first frame with the pane and a graph node laid out and visible.\n' +
      '  click answered: that node shown selected after a click sent as soon as it was ready\n' +
      "  (Playwright's click, with its own checks first); press to selected: from the pointer\n" +
      "  press to the selection. Long tasks: the main thread's, over 50 ms, before the answered\n" +
      "  click. JS before ready: the page's scripts fetched before the canvas was ready (the\n" +
      '  initial JavaScript and what it loaded at once; workers not counted). Return visit:\n' +
      '  the graph run once, then the page loaded again (HTTP cache and IndexedDB kept): its\n' +
      "  canvas ready, and the timeline's first checkpoint listed (the runtime worker started,\n" +
      '  the graph compiled, the thread read).',
  )
} finally {
  await browser.close()
  for (const s of servers) s.close()
}
