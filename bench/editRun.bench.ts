/**
 * Run right after an edit (issue 18, "the run in the browser"): on the built app in real
 * Chromium, the first start's example graph is run once, then, ROUNDS times, its node is
 * dragged to a new place (an edit of the document, not of its code) and Run pressed. Each
 * time, from the pointer press on Run to the run status saying done: the graph compiled
 * again (its code checked, in a sandbox when the worker has not checked that code before),
 * then run in a sandbox of its own, every checkpoint committed.
 *   Run: npm run build:test && npx tsx bench/editRun.bench.ts
 *   (BENCH_DIST: one build or several, comma-separated, alternated; BENCH_ROUNDS, default 12.)
 */
import type { Page } from 'playwright-core'
import { launchChromium, startPreview } from './browser'

const DISTS = (process.env.BENCH_DIST ?? 'dist').split(',')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12)
/** Rounds per page: each build gets a fresh page this often, alternating with the others. */
const PER_PAGE = 4

/**
 * Page script (a string: tsx would wrap inner functions in a `__name` helper): the time of the
 * next pointer press, and of the run status's next phase changes.
 */
const WATCH = `
  window.__pressed = 0
  window.__phases = []
  document.addEventListener('pointerdown', () => { window.__pressed ||= performance.now() },
    { capture: true, once: true })
  const status = document.querySelector('[aria-label="Run status"]')
  new MutationObserver(() => window.__phases.push([performance.now(), status.dataset.phase]))
    .observe(status, { attributes: true, attributeFilter: ['data-phase'] })
`

/** `window` as WATCH leaves it. */
type Watched = { __pressed: number; __phases: [number, string][] }

async function runAfterMove(page: Page, round: number): Promise<number> {
  const node = page.locator('.react-flow__node[data-id="inc"]')
  const box = (await node.boundingBox())!
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2]
  await page.mouse.move(x, y)
  await page.mouse.down()
  await page.mouse.move(x + 20, y + (round % 2 ? -15 : 15), { steps: 4 })
  await page.mouse.up()
  await page.waitForTimeout(800) // saved, and the page idle again
  await page.evaluate(WATCH)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  // A function, not a string: the page's policy forbids eval, which a string predicate needs.
  await page.waitForFunction(
    () => (window as unknown as Watched).__phases.some(([, p]) => p === 'done' || p === 'failed'),
    null,
    { timeout: 30_000 },
  )
  const [pressed, phases] = (await page.evaluate('[window.__pressed, window.__phases]')) as [
    number,
    [number, string][],
  ]
  const end = phases.find(([, p]) => p === 'done' || p === 'failed')!
  if (end[1] !== 'done') throw new Error('the run failed')
  return end[0] - pressed
}

const servers = await Promise.all(DISTS.map((d) => startPreview('/', d)))
const browser = await launchChromium()
try {
  const times = DISTS.map(() => [] as number[])
  for (let done = 0; done < ROUNDS; done += PER_PAGE) {
    for (const [k, server] of servers.entries()) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      const page = await context.newPage()
      await page.goto(server.base)
      await page.getByRole('button', { name: 'Run', exact: true }).click()
      await page.locator('[aria-label="Run status"][data-phase="done"]').waitFor()
      await page.waitForTimeout(1500) // the runtime's spare sandbox ready, as on a page in use
      for (let r = done; r < Math.min(done + PER_PAGE, ROUNDS); r++)
        times[k]!.push(await runAfterMove(page, r))
      await context.close()
    }
  }
  console.log(`\nRun right after an edit (a node moved): press to done, ${ROUNDS} runs each`)
  const at = (xs: number[], q: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!
  for (const [k, dist] of DISTS.entries())
    console.log(
      `  ${dist.padEnd(28)} median ${at(times[k]!, 0.5).toFixed(0).padStart(4)} ms   p90 ${at(times[k]!, 0.9).toFixed(0).padStart(4)} ms`,
    )
} finally {
  await browser.close()
  for (const s of servers) s.close()
}
