/**
 * The page stays responsive while a 1,000-super-step graph runs in the worker: main-thread
 * long tasks (PerformanceObserver 'longtask', > 50 ms) observed during the run, in real
 * Chromium against the built app.  Run: npm run build:test && npx tsx bench/ui.bench.ts
 */
import { launchChromium, startPreview, takeLongTasks, watchLongTasks } from './browser'
import type {} from '../src/worker/sandbox/testPage'

const STEPS = 1000
const doc = {
  superstep: 1,
  name: 'cycle-1000',
  state: [{ name: 'n', reducer: 'add', default: 0 }],
  nodes: [{ id: 'inc', code: '(s) => ({ n: 1 })' }],
  edges: [{ from: '__start__', to: 'inc' }],
  branches: [
    { from: 'inc', router: `(s) => s.n < ${STEPS} ? 'inc' : '__end__'`, paths: ['inc', '__end__'] },
  ],
}

const server = await startPreview()
try {
  const browser = await launchChromium()
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.goto(`${server.base}/`)
  await page.getByRole('button', { name: 'Run', exact: true }).waitFor()
  await page.getByLabel('Import a graph file').setInputFiles({
    name: 'cycle.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  })
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  await page.getByLabel('Recursion limit').fill(String(STEPS + 10))
  await watchLongTasks(page)
  const pageT0 = (await page.evaluate('performance.now()')) as number
  const t0 = Date.now()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  // The phase, not the words shown ("Done"), which are the page's to change.
  const status = page.locator(
    '[aria-label="Run status"]:is([data-phase="done"], [data-phase="failed"])',
  )
  await status.waitFor({ timeout: 120_000 })
  if ((await status.getAttribute('data-phase')) !== 'done')
    throw new Error(`the run failed: ${await page.getByLabel('Run error').textContent()}`)
  const ms = Date.now() - t0
  // Long tasks until the page settles after the run (the full timeline is read then).
  await page.waitForTimeout(1500)
  // Start times after Run was pressed.
  const long = (await takeLongTasks(page)).map(([at, d]) => [at - pageT0, d] as const)
  const max = long.length ? Math.max(...long.map(([, d]) => d)) : 0
  console.log(
    `1,000-step run in the worker (sandboxed code): ${ms} ms, ${(ms / (STEPS + 1)).toFixed(2)} ms per super-step`,
  )
  console.log(
    `main-thread long tasks during the run: ${long.length}, longest ${max.toFixed(0)} ms (target: none over 50 ms)`,
  )
  if (long.length)
    console.log(
      `  at (ms after Run: duration): ${long.map(([at, d]) => `${at.toFixed(0)}: ${d.toFixed(0)}`).join(', ')}`,
    )

  // Every compile, run and state update gets a fresh sandbox (issue 12): what one costs, cold
  // (the app also makes one per network mode ahead, so a run seldom waits even this long).
  await page.goto(`${server.base}/sandbox-test.html`)
  await page.evaluate(() => window.__sandbox.ready)
  const creates = (await page.evaluate(() => window.__sandbox.timeCreate(11)))
    .map((t) => t.firstReply)
    .sort((a, b) => a - b)
  const rounds: number[] = []
  for (let i = 0; i < 41; i++) {
    const o = await page.evaluate(() => window.__sandbox.runNode('(s) => s', { n: 1 }))
    rounds.push(o.ms)
  }
  rounds.sort((a, b) => a - b)
  const fresh = creates[5] ?? NaN
  const round = rounds[20] ?? NaN
  console.log(
    `fresh sandbox (frame + worker + first reply), median of 11: ${fresh.toFixed(1)} ms = ${(fresh / 50).toFixed(2)} of the 50 ms budget, ${(fresh / round).toFixed(0)}x a warm call's round trip (${round.toFixed(2)} ms)`,
  )
  await browser.close()
} finally {
  server.close()
}
