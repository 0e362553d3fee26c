/**
 * Big graphs run in the page (issue 18, "big graphs"): a step should cost what it touches,
 * not what the graph holds. In real Chromium against the built app, each graph is imported,
 * trusted and run from the Run button to the run's end (`data-phase="done"`); the time per
 * super-step is that span over the run's super-steps. The reference, in the same run, is the
 * one-node cycle with as many super-steps: a chain of BENCH_NODES nodes (one node a step, no
 * router) against it gives the ratio the issue asks to keep within 2×. The main thread's long
 * tasks during each run are counted, and the worker's share is read from its step profile
 * (src/worker/stepProfile.ts) when the build has it. After each run, what the user does next
 * is timed too: the timeline showing the last step, and clicks on older steps to their state
 * (a state of the chain names 2,000 channels).
 *   Run: npm run build:test && npx tsx bench/bigGraphRun.bench.ts
 *   BENCH_NODES (2000) sets the chain's length and the cycle's steps.
 *   BENCH_DIST (dist): the build to run; several, comma-separated, compare builds in one run.
 *   BENCH_PROFILE=1 also prints the main thread's top self times during each run.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import type { GraphSpec } from '../src/core/graph/schema'
import { startProfile, startWorkerProfile, topSelfTimes } from './cpuProfile'
import { launchChromium, startPreview, takeLongTasks, watchLongTasks } from './browser'
import { chainGraph, cycleGraph } from './graphs'

const NODES = Number(process.env.BENCH_NODES ?? 2000)
const DISTS = (process.env.BENCH_DIST ?? 'dist').split(',')
const PROFILE = process.env.BENCH_PROFILE === '1'
const dir = await mkdtemp(join(tmpdir(), 'bench-biggraph-'))

/** ms per super-step of one run of `doc` in a new page, and its main-thread long tasks. */
async function perStep(
  browser: Browser,
  base: string,
  dist: string,
  doc: GraphSpec,
  supersteps: number,
) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  const page = await context.newPage()
  page.on('pageerror', (e) => console.error('  page error:', e.message))
  await page.goto(`${base}/`)
  await page.getByRole('button', { name: 'Run', exact: true }).waitFor()
  const file = join(dir, `${doc.name}.json`)
  await writeFile(file, JSON.stringify(doc))
  await page.getByLabel('Import a graph file').setInputFiles(file)
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  // The default limit (25) would stop both runs long before their end.
  await page.getByLabel('Recursion limit').fill(String(supersteps + 10))
  await page.getByLabel('Recursion limit').blur()
  await page.waitForTimeout(1500)
  await watchLongTasks(page)
  const status = page.getByLabel('Run status')
  const stop = PROFILE ? await startProfile(page) : null
  const stopWorker = PROFILE ? await startWorkerProfile(page, /runtime/) : null
  const t0 = Date.now()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await page
    .locator('[aria-label="Run status"]:is([data-phase="done"], [data-phase="failed"])')
    .waitFor({ timeout: 1_200_000 })
  const ms = Date.now() - t0
  const profile = stop ? await topSelfTimes(await stop(), dist, 15) : []
  const workerProfile = stopWorker ? await stopWorker() : null
  const worker = workerProfile ? await topSelfTimes(workerProfile, dist, 15) : []
  const long = (await takeLongTasks(page)).map(([, d]) => d)
  const text = (await status.textContent()) ?? ''
  if ((await status.getAttribute('data-phase')) !== 'done')
    throw new Error(`${doc.name} did not run to its end: ${text}`)
  const reads = await readsAfterRun(page, supersteps - 1)
  await context.close()
  return { perStep: ms / supersteps, total: ms, long, text, profile, worker, reads }
}

/**
 * Reading the run back, as the user does next: from "done" to the timeline's top row showing
 * the last step, then clicks on older rows, each to its state shown (the State tab), in ms.
 */
async function readsAfterRun(page: Page, lastStep: number) {
  const rows = page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
  const t0 = Date.now()
  await rows
    .first()
    .filter({ hasText: `step ${lastStep}` })
    .waitFor({ timeout: 60_000 })
  const timeline = Date.now() - t0
  await page.waitForTimeout(500)
  await page.getByRole('tab', { name: 'State', exact: true }).click()
  const clicks: number[] = []
  for (const i of [3, 6, 9, 12, 15]) {
    const step = /step (\d+)/.exec(await rows.nth(i).innerText())?.[1]
    const t1 = Date.now()
    await rows.nth(i).click()
    await page
      .getByRole('tabpanel')
      .filter({ hasText: new RegExp(`State at step ${step}\\b`) })
      .waitFor({ timeout: 60_000 })
    clicks.push(Date.now() - t1)
  }
  return { timeline, clicks }
}

for (const dist of DISTS) await benchBuild(dist)
await rm(dir, { recursive: true, force: true })

async function benchBuild(dist: string) {
  const server = await startPreview('/', dist)
  try {
    const browser = await launchChromium()
    // Both run NODES + 1 super-steps (START's included).
    const cycle = await perStep(browser, server.base, dist, cycleGraph(NODES), NODES + 1)
    const chain = await perStep(browser, server.base, dist, chainGraph(NODES), NODES + 1)
    await browser.close()
    const row = (name: string, r: typeof cycle) => {
      console.log(
        `${name.padEnd(28)} ${r.perStep.toFixed(2).padStart(8)} ms/step  ${(r.total / 1000).toFixed(1).padStart(6)} s   long tasks ${r.long.length}, longest ${Math.round(Math.max(0, ...r.long))} ms`,
      )
      const clicks = [...r.reads.clicks].sort((a, b) => a - b)
      console.log(
        `${''.padEnd(28)} then: the last step in the timeline ${r.reads.timeline} ms after "done"; a click on an older step to its state shown, median ${clicks[Math.floor(clicks.length / 2)]} ms (${r.reads.clicks.join(', ')})`,
      )
      for (const [part, top] of [
        ['page', r.profile],
        ['worker', r.worker],
      ] as const)
        for (const [where, ms] of top)
          console.log(`    ${part.padEnd(6)} ${ms.toFixed(0).padStart(7)} ms  ${where}`)
    }
    console.log('-'.repeat(78))
    console.log(
      `big graph run in the page, ${dist} (${NODES + 1} super-steps each, sandboxed code, IndexedDB)`,
    )
    row(`1-node cycle (reference)`, cycle)
    row(`${NODES}-node chain`, chain)
    const ratio = chain.perStep / cycle.perStep
    console.log(
      `chain / cycle: ${ratio.toFixed(2)}×  (goal ≤ 2×: ${ratio <= 2 ? 'met' : 'MISSED'})`,
    )
    console.log('-'.repeat(78))
  } finally {
    server.close()
  }
}
