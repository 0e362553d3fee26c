/**
 * Big work in the built app, real Chromium (issue 15, "big threads and graphs stay
 * responsive"). Each action is timed in the page, from the user's event (its `timeStamp`) to
 * the first frame that shows its effect, with the main-thread long tasks (PerformanceObserver
 * 'longtask', > 50 ms) from the event until the page is quiet again; the reference is the
 * same action on a small document in the same run.
 * (a) A chain graph of BENCH_NODES nodes (2,000) against a 1-node chain: opened (a reload,
 *     to the first node drawn), a node selected (to its inspector), renamed from the
 *     inspector (typing, then Enter until the canvas draws the new name, then until "Saved"),
 *     a field added, the add undone.
 * (b) A thread of BENCH_STEPS + 2 checkpoints (10,002) against one of 12, imported through
 *     Import thread, then reopened by a reload (to its newest checkpoint on the timeline) and
 *     its oldest loaded checkpoint selected (to its channels). The rows the runtime worker
 *     read from IndexedDB are counted by wrapping IDBObjectStore/IDBIndex reads in the worker
 *     (get, getAll, cursors: rows delivered, per table).
 *   Run: npx vite build --outDir /tmp/dist-bw && BENCH_DIST=/tmp/dist-bw npx tsx bench/bigWork.bench.ts
 *   BENCH_PART=a or b runs one part; BENCH_NODES, BENCH_STEPS change the sizes; the edits of
 *   (a) run BENCH_REPEAT times (5) and their medians are printed (the machine is shared).
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page, Worker } from 'playwright-core'
import { launchChromium, watchLongTasksScript } from './browser'
import { chainGraph } from './graphs'
import { makeThreadFile } from './threadFiles'

const DIST = process.env.BENCH_DIST ?? 'dist'
const PORT = Number(process.env.BENCH_PORT ?? 4373)
const NODES = Number(process.env.BENCH_NODES ?? 2000)
const STEPS = Number(process.env.BENCH_STEPS ?? 10000)
const PARTS = (process.env.BENCH_PART ?? 'a,b').split(',')
const REPEAT = Number(process.env.BENCH_REPEAT ?? 5)
const BASE = `http://localhost:${PORT}`

/** One measured action: time to its effect drawn, long tasks from its event until quiet. */
interface Sample {
  ms: number
  longest: number
  longTotal: number
  /** To "Saved" (edits only). */
  savedMs?: number
  /** Rows the runtime worker read, per table (thread actions only). */
  rows?: Record<string, number>
  note?: string
}

type First = { __first: Record<string, number | undefined> }

// Page scripts are strings: tsx would wrap their inner functions in a `__name` helper.
const INIT = `
  ${watchLongTasksScript(true)}
  // First frames after navigation start in which the canvas shows a document node, the
  // timeline a checkpoint, the channel table a value.
  window.__first = {}
  const seen = (name, selector) => {
    if (window.__first[name] === undefined && document.querySelector(selector))
      window.__first[name] = performance.now()
  }
  const poll = () => {
    seen('node', '.react-flow__node:not([data-id^="__"])')
    seen('checkpoint', '[role="listbox"][aria-label="Checkpoints"] [role="option"]')
    seen('channels', 'table[aria-label="Channels"] [data-json]')
    if (performance.now() < 600000) requestAnimationFrame(poll)
  }
  requestAnimationFrame(poll)
`

/** Counts the rows IndexedDB hands to this worker, per object store. */
const COUNT_ROWS = `(() => {
  if (self.__rows) return true
  const rows = (self.__rows = {})
  const add = (store, n) => { rows[store] = (rows[store] || 0) + n }
  const wrap = (proto, name, kind) => {
    const orig = proto[name]
    proto[name] = function (...args) {
      const req = orig.apply(this, args)
      const store = this.objectStore ? this.objectStore.name : this.name
      req.addEventListener('success', () => {
        const r = req.result
        if (kind === 'all') add(store, r ? r.length : 0)
        else if (kind === 'one') add(store, r === undefined ? 0 : 1)
        else if (r) add(store, 1)
      })
      return req
    }
  }
  for (const p of [IDBObjectStore.prototype, IDBIndex.prototype]) {
    wrap(p, 'get', 'one')
    wrap(p, 'getAll', 'all')
    wrap(p, 'openCursor', 'cursor')
  }
  return true
})()`

/**
 * Runs `act` and measures from the first key or pointer event it causes (or from now, for
 * `from: 'now'`) to the first frame in which `done` (a page expression) holds; then waits
 * until no long task for `quietMs` and sums the long tasks since the event.
 */
async function measure(
  page: Page,
  done: string,
  act: () => Promise<void>,
  o: { from?: 'event' | 'now'; saved?: boolean; quietMs?: number; timeout?: number } = {},
): Promise<Sample> {
  await page.evaluate(`(() => {
    const m = (window.__m = { t0: null, t1: null, saved: null })
    ${o.from === 'now' ? 'm.t0 = performance.now()' : ''}
    const on = (e) => { if (m.t0 === null) m.t0 = e.timeStamp }
    for (const t of ['keydown', 'pointerdown']) document.addEventListener(t, on, { capture: true, once: true })
    const poll = () => {
      if (m.t0 !== null && m.t1 === null && (${done})) m.t1 = performance.now()
      if (m.t1 !== null && ${o.saved ? 'true' : 'false'} &&
          document.querySelector('[aria-label="Save state"]')?.textContent === 'Saved') {
        m.saved = performance.now()
        return
      }
      if (m.t1 === null || ${o.saved ? 'true' : 'false'}) requestAnimationFrame(poll)
    }
    requestAnimationFrame(poll)
  })()`)
  await act()
  await page.waitForFunction(
    (saved) => {
      const m = (window as unknown as { __m: { t1: number | null; saved: number | null } }).__m
      return saved ? m.saved !== null : m.t1 !== null
    },
    o.saved === true,
    { timeout: o.timeout ?? 120_000, polling: 100 },
  )
  const m = (await page.evaluate('window.__m')) as { t0: number; t1: number; saved: number | null }
  const long = await quiet(page, m.t0, o.quietMs ?? 1000)
  return {
    ms: m.t1 - m.t0,
    ...long,
    ...(m.saved !== null && { savedMs: m.saved - m.t0 }),
  }
}

/** Waits until no long task started for `quietMs`; the long tasks since `from`. */
async function quiet(page: Page, from: number, quietMs: number) {
  for (;;) {
    const [now, last] = (await page.evaluate(
      '[performance.now(), Math.max(0, ...window.__long.map(([s, d]) => s + d))]',
    )) as [number, number]
    if (now - last >= quietMs) break
    await page.waitForTimeout(Math.max(100, quietMs - (now - last)))
  }
  const long = (await page.evaluate('window.__long')) as [number, number][]
  const mine = long.filter(([s, d]) => s + d >= from).map(([, d]) => d)
  return { longest: Math.max(0, ...mine), longTotal: mine.reduce((a, b) => a + b, 0) }
}

/**
 * A file on disk to pick: Playwright hands a path to the browser as it is, whereas a buffer
 * is decoded by script in the page (a 25 MB thread file blocked the page for 13 s).
 */
const tempDirs: string[] = []
async function fileOf(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bigwork-'))
  tempDirs.push(dir)
  const path = join(dir, name)
  await writeFile(path, text)
  return path
}

async function newPage(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  page.on('pageerror', (e) => console.error('  page error:', e.message))
  await page.addInitScript(INIT)
  await page.goto(`${BASE}/`)
  await page.getByRole('button', { name: 'Run', exact: true }).waitFor()
  return page
}

async function waitSaved(page: Page) {
  await page
    .getByRole('status', { name: 'Save state' })
    .filter({ hasText: /^Saved$/ })
    .waitFor({ timeout: 120_000 })
}

/** The first document node drawn in the middle of the canvas. */
async function middleNode(page: Page) {
  return (await page.evaluate(`(() => {
    const all = [...document.querySelectorAll('.react-flow__node:not([data-id^="__"])')]
    const box = document.querySelector('.react-flow').getBoundingClientRect()
    const cx = box.left + box.width / 2
    const cy = box.top + box.height / 2
    const by = all
      .map((el) => ({ id: el.dataset.id, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && r.left > box.left && r.right < box.right && r.top > box.top && r.bottom < box.bottom)
      .sort((a, b) => Math.hypot(a.r.x - cx, a.r.y - cy) - Math.hypot(b.r.x - cx, b.r.y - cy))
    const pick = by[0]
    if (!pick) throw new Error('no node in view')
    return { id: pick.id, x: pick.r.left + pick.r.width / 2, y: pick.r.top + pick.r.height / 2 }
  })()`)) as { id: string; x: number; y: number }
}

/** Select, rename, add a field, undo: once each, on the open graph. */
async function editActions(page: Page, name: string): Promise<Record<string, Sample>> {
  const out: Record<string, Sample> = {}
  const target = await middleNode(page)
  out.select = await measure(
    page,
    `document.querySelector('.node-id-input input')?.value === ${JSON.stringify(target.id)}`,
    () => page.mouse.click(target.x, target.y),
  )

  // Rename: the new name typed into the inspector, then Enter.
  const input = page.getByLabel('Node id')
  await input.click()
  await input.press('ControlOrMeta+a')
  out.typing = await measure(
    page,
    `document.querySelector('.node-id-input input')?.value === ${JSON.stringify(name)}`,
    () => page.keyboard.type(name, { delay: 30 }),
  )
  out.rename = await measure(
    page,
    `document.querySelector('.react-flow__node[data-id="${name}"]')`,
    () => input.press('Enter'),
    { saved: true },
  )

  // Add a field: with nothing selected the inspector shows the state.
  await page.locator(`.react-flow__node[data-id="${name}"]`).click()
  await page.keyboard.press('Escape')
  const add = page.getByRole('button', { name: 'Add field', exact: true })
  await add.waitFor()
  const rows = `document.querySelectorAll('[role="table"][aria-label="State fields"] [role="row"]').length`
  const before = (await page.evaluate(rows)) as number
  out.addField = await measure(page, `${rows} === ${before + 1}`, () => add.click(), {
    saved: true,
  })
  out.undo = await measure(
    page,
    `${rows} === ${before}`,
    () => page.getByRole('button', { name: 'Undo', exact: true }).click(),
    { saved: true },
  )
  return out
}

/** Each figure's median over several runs of an action. */
function median(samples: Sample[]): Sample {
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
  const saved = samples.flatMap((x) => (x.savedMs === undefined ? [] : [x.savedMs]))
  return {
    ms: mid(samples.map((x) => x.ms)),
    longest: mid(samples.map((x) => x.longest)),
    longTotal: mid(samples.map((x) => x.longTotal)),
    ...(saved.length > 0 && { savedMs: mid(saved) }),
  }
}

/** Part (a): the graph actions on a chain of `n` nodes. */
async function graphActions(browser: Browser, n: number): Promise<Record<string, Sample>> {
  const page = await newPage(browser)
  const doc = chainGraph(n)
  const graphFile = await fileOf(`${doc.name}.json`, JSON.stringify(doc))
  const out: Record<string, Sample> = {}
  out.import = await measure(
    page,
    `document.querySelector('.react-flow__node[data-id="n${n - 1}"], .react-flow__node[data-id="n0"]')`,
    () => page.getByLabel('Import a graph file').setInputFiles(graphFile),
    { from: 'now' },
  )
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  await waitSaved(page)
  await quiet(page, 0, 1000)

  // Open: a reload reopens the graph open before it.
  await page.reload()
  await page.waitForFunction(() => (window as unknown as First).__first.node !== undefined, null, {
    timeout: 120_000,
  })
  const first = (await page.evaluate('window.__first.node')) as number
  out.open = { ms: first, ...(await quiet(page, 0, 1000)) }

  // Each edit several times over: the machine is shared, the median is reported.
  const runs: Record<string, Sample>[] = []
  for (let r = 0; r < REPEAT; r++) runs.push(await editActions(page, `renamed${r}`))
  for (const name of Object.keys(runs[0] ?? {}))
    out[name] = median(runs.map((x) => x[name] as Sample))
  await page.context().close()
  return out
}

/** The runtime worker (it reads the checkpoints). */
function runtimeWorker(page: Page): Worker | undefined {
  return page.workers().find((w) => /runtime/.test(w.url()))
}

async function rowsRead(page: Page, reset = false): Promise<Record<string, number>> {
  const w = runtimeWorker(page)
  if (!w) return {}
  const rows = (await w.evaluate(
    `(() => { const r = { ...(self.__rows || {}) }; ${reset ? 'for (const k in self.__rows) self.__rows[k] = 0' : ''}; return r })()`,
  )) as Record<string, number>
  return rows
}

/** Part (b): a thread of `steps` + 2 checkpoints imported, reopened, an old checkpoint shown. */
async function threadActions(browser: Browser, steps: number): Promise<Record<string, Sample>> {
  const file = await makeThreadFile(steps)
  const text = JSON.stringify(file, null, 2)
  const threadFile = await fileOf(`cycle-${steps}.thread.json`, text)
  const page = await newPage(browser)
  const out: Record<string, Sample> = {}
  out.import = await measure(
    page,
    `[...document.querySelectorAll('[aria-label="Message"]')].some((m) => m.textContent.includes('Imported thread'))`,
    () => page.getByLabel('Import a thread file').setInputFiles(threadFile),
    { from: 'now', timeout: 1_200_000 },
  )
  out.import.note = `${(text.length / 1e6).toFixed(1)} MB`
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  await page
    .getByRole('listbox', { name: 'Checkpoints' })
    .getByRole('option')
    .first()
    .waitFor({ timeout: 120_000 })
  await quiet(page, 0, 1000)

  // Reopen: a reload, the worker's reads counted from its start.
  const patched: Promise<unknown>[] = []
  const onWorker = (w: Worker) => {
    if (/runtime/.test(w.url())) patched.push(w.evaluate(COUNT_ROWS).catch(() => false))
  }
  page.on('worker', onWorker)
  await page.reload()
  await page.waitForFunction(
    () => (window as unknown as First).__first.checkpoint !== undefined,
    null,
    {
      timeout: 120_000,
    },
  )
  const shown = (await page.evaluate('window.__first.checkpoint')) as number
  out.reopen = { ms: shown, ...(await quiet(page, 0, 1500)) }
  page.off('worker', onWorker)
  await Promise.all(patched)
  const count = `(${file.checkpoints.length})`
  const option = await page
    .getByRole('combobox', { name: 'Thread' })
    .locator('option:checked')
    .textContent()
  if (!option?.includes(count)) out.reopen.note = `thread shown: ${option}`
  out.reopen.rows = await rowsRead(page, true)
  const loaded = await page.getByRole('slider', { name: 'Scrubber' }).getAttribute('max')
  out.reopen.note = `${out.reopen.note ?? ''}${Number(loaded) + 1} checkpoints on the timeline`

  // An old checkpoint: the oldest one loaded (End in the list), until the channel table
  // shows it (the table shows the newest until the old one's inspection arrives).
  const table = `document.querySelector('table[aria-label="Channels"] tbody')?.textContent`
  const newest = (await page.evaluate(`(() => {
    const sel = document.querySelector('[aria-label="Checkpoints"] [aria-selected="true"]')
    return { step: sel.dataset.step, table: ${table} }
  })()`)) as { step: string; table: string }
  await page.getByRole('listbox', { name: 'Checkpoints' }).focus()
  await rowsRead(page, true)
  out.oldCheckpoint = await measure(
    page,
    `(() => {
      const sel = document.querySelector('[aria-label="Checkpoints"] [aria-selected="true"]')
      return sel && sel.dataset.step !== ${JSON.stringify(newest.step)} && ${table} !== ${JSON.stringify(newest.table)}
    })()`,
    () => page.keyboard.press('End'),
  )
  out.oldCheckpoint.rows = await rowsRead(page, true)
  const step = await page.evaluate(
    `document.querySelector('[aria-label="Checkpoints"] [aria-selected="true"]').dataset.step`,
  )
  out.oldCheckpoint.note = `step ${String(step)}`
  await page.context().close()
  return out
}

const fmt = (v: number) => String(Math.round(v)).padStart(7)
const rowsText = (r?: Record<string, number>) =>
  r
    ? Object.entries(r)
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : ''

function table(title: string, ref: Record<string, Sample>, big: Record<string, Sample>) {
  console.log(title)
  console.log(
    `  ${'action'.padEnd(14)} ${'ref ms'.padStart(7)} ${'big ms'.padStart(7)} ${'ratio'.padStart(6)} ${'longest'.padStart(7)} ${'(ref)'.padStart(7)} ${'long sum'.padStart(8)} ${'saved'.padStart(7)}  notes`,
  )
  for (const [name, b] of Object.entries(big)) {
    const r = ref[name]
    const ratio = r && r.ms > 0 ? (b.ms / r.ms).toFixed(1) : '-'
    const notes = [b.note, rowsText(b.rows) && `read: ${rowsText(b.rows)}`]
      .filter(Boolean)
      .join('; ')
    console.log(
      `  ${name.padEnd(14)} ${r ? fmt(r.ms) : '      -'} ${fmt(b.ms)} ${ratio.padStart(6)} ${fmt(b.longest)} ${r ? fmt(r.longest) : '      -'} ${String(Math.round(b.longTotal)).padStart(8)} ${b.savedMs === undefined ? '      -' : fmt(b.savedMs)}  ${notes}`,
    )
    if (r?.rows) console.log(`  ${''.padEnd(14)} (reference read: ${rowsText(r.rows)})`)
  }
}

const server = spawn(
  process.execPath,
  [
    'node_modules/vite/bin/vite.js',
    'preview',
    '--port',
    String(PORT),
    '--strictPort',
    '--outDir',
    DIST,
  ],
  { stdio: 'ignore' },
)
try {
  for (let i = 0; i < 100; i++) {
    const up = await fetch(BASE).then(
      (r) => r.ok,
      () => false,
    )
    if (up) break
    await new Promise((r) => setTimeout(r, 200))
  }
  const browser = await launchChromium()
  if (PARTS.includes('a')) {
    const ref = await graphActions(browser, 1)
    const big = await graphActions(browser, NODES)
    table(
      `(a) chain graph of ${NODES.toLocaleString('en')} nodes vs 1 node (ms from the event to the frame that shows it; long tasks until quiet)`,
      ref,
      big,
    )
  }
  if (PARTS.includes('b')) {
    const ref = await threadActions(browser, 10)
    const big = await threadActions(browser, STEPS)
    table(
      `(b) thread of ${(STEPS + 2).toLocaleString('en')} checkpoints vs 12 (reopen: reload to the newest checkpoint drawn)`,
      ref,
      big,
    )
  }
  await browser.close()
} finally {
  server.kill()
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true })
}
