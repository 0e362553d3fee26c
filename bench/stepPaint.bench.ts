/**
 * Step paints its result within one frame of the worker's answer (issue 18, "the run in the
 * browser"): on the built app in real Chromium, F10 is pressed STEPS times on a one-node cycle
 * (sandboxed code, every checkpoint committed); for each press the page records when the last
 * message from the runtime worker arrived before the new step showed in the timeline, and when
 * the frame that shows it ran (the first animation frame after the DOM change). The table
 * gives that delay against the 16.7 ms frame of a 60 Hz screen, and the press-to-frame time
 * beside it.
 *   Run: npm run build:test && npx tsx bench/stepPaint.bench.ts
 *   (BENCH_DIST: one build or several, comma-separated, measured one after another;
 *   BENCH_STEPS: presses, default 40.)
 */
import type { Page } from 'playwright-core'
import { launchChromium, startPreview } from './browser'
import { cycleGraph } from './graphs'

const DISTS = (process.env.BENCH_DIST ?? 'dist').split(',')
const STEPS = Number(process.env.BENCH_STEPS ?? 40)
const FRAME = 1000 / 60

/**
 * Page script (a string: tsx would wrap inner functions in a `__name` helper): stamps every
 * message a Worker hands the page, and the first frame after the timeline lists step `n`.
 */
const RECORDER = `
  window.__workerMsgs = []
  const add = Worker.prototype.addEventListener
  Worker.prototype.addEventListener = function (type, listener, options) {
    if (type !== 'message') return add.call(this, type, listener, options)
    const wrapped = function (e) {
      window.__workerMsgs.push(performance.now())
      return typeof listener === 'function' ? listener.call(this, e) : listener.handleEvent(e)
    }
    return add.call(this, type, wrapped, options)
  }
  window.__waitStep = (n) => new Promise((resolve) => {
    const sel = '[role="option"][data-step="' + n + '"]'
    const seen = () => {
      const shownAt = performance.now()
      const msgs = window.__workerMsgs.filter((t) => t <= shownAt)
      const answer = msgs[msgs.length - 1] ?? NaN
      requestAnimationFrame(() => resolve({ answer, shown: shownAt, frame: performance.now() }))
    }
    if (document.querySelector(sel)) return seen()
    const mo = new MutationObserver(() => {
      if (!document.querySelector(sel)) return
      mo.disconnect()
      seen()
    })
    mo.observe(document.body, { subtree: true, childList: true, attributes: true })
  })
`

interface Press {
  answerToFrame: number
  /** Of which: the worker's last message to the DOM change (the page's own work). */
  answerToDom: number
  pressToFrame: number
}

async function presses(page: Page): Promise<Press[]> {
  const out: Press[] = []
  // Step -1 (the input) and 0 come with the first press; each later press adds one step.
  for (let step = 0; step < STEPS; step++) {
    const t0 = (await page.evaluate('performance.now()')) as number
    const wait = page.evaluate(`window.__waitStep(${step})`) as Promise<{
      answer: number
      shown: number
      frame: number
    }>
    await page.keyboard.press('F10')
    const r = await wait
    out.push({
      answerToFrame: r.frame - r.answer,
      answerToDom: r.shown - r.answer,
      pressToFrame: r.frame - t0,
    })
    await page.waitForFunction(
      `document.querySelector('[aria-label="Run status"]')?.dataset.phase !== 'running'`,
    )
  }
  return out
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? NaN

const rows: string[] = []
for (const dist of DISTS) {
  const server = await startPreview('/', dist)
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    await page.addInitScript(RECORDER)
    await page.goto(`${server.base}/`)
    await page.getByRole('button', { name: 'Run', exact: true }).waitFor()
    await page.getByLabel('Import a graph file').setInputFiles({
      name: 'cycle.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(cycleGraph(1000))),
    })
    await page.getByRole('button', { name: 'Trust and allow running' }).click()
    await page.getByLabel('Recursion limit').fill('2000')
    const r = await presses(page)
    const a = r.map((x) => x.answerToFrame)
    const p = r.map((x) => x.pressToFrame)
    const d = r.map((x) => x.answerToDom)
    const within = a.filter((x) => x <= FRAME).length
    rows.push(
      `${dist.padEnd(24)} ${pct(a, 50).toFixed(1).padStart(6)} ${pct(a, 95).toFixed(1).padStart(6)}   ${`${within}/${a.length}`.padStart(7)}   ${pct(d, 50).toFixed(1).padStart(7)} ${pct(d, 95).toFixed(1).padStart(6)}   ${pct(p, 50).toFixed(1).padStart(6)} ${pct(p, 95).toFixed(1).padStart(6)}`,
    )
  } finally {
    await browser.close()
    server.close()
  }
}
console.log(
  `Step (F10) on a one-node cycle, ${STEPS} presses: worker's last message to the frame showing the step (ms), and press to that frame`,
)
console.log(
  `${'build'.padEnd(24)} ${'p50'.padStart(6)} ${'p95'.padStart(6)}   within 1 frame   to DOM p50    p95   ${'press p50'.padStart(6)} ${'p95'.padStart(6)}`,
)
for (const r of rows) console.log(r)
console.log(
  `(To DOM: the worker's last message to the DOM change, the page's own work; the rest of a delay is the wait for the next frame. A change made w ms after a message that came at a random point of a frame misses that frame with a chance of about w / 16.7.)`,
)
