/**
 * The sandbox's side of a run beside the code, alone (issue 18, "the run in the browser"):
 * the loop program in a fresh sandbox (sandbox-test.html, a new page each run, so each run
 * starts cold as a run in the app does), the 1,000-step one-node cycle, from the request to
 * its last step posted, with no worker storing the steps. What is left of runProfile's
 * `beside.wait` once the worker, IndexedDB and the page are taken away, against LangGraph.js
 * with MemorySaver in Node in this process.
 *   Run: npm run build:test && npx tsx bench/besideLoop.bench.ts
 *   BENCH_DIST (dist): the build, or builds to compare, comma-separated; BENCH_STEPS (1000),
 *   BENCH_RUNS (5). BENCH_PROFILE=1 runs an unminified loop program (scripts/sandboxLoop.ts)
 *   once more, profiling the sandbox's worker, and prints its top self times.
 */
import type { Browser } from 'playwright-core'
import { buildSandboxLoop } from '../scripts/sandboxLoop'
import { launchChromium, startPreview } from './browser'
import { startBrowserWorkerProfile, topSelfTimes } from './cpuProfile'
import { cycleGraph } from './graphs'
import { langGraphPerStep } from './langGraphRef'

const DISTS = (process.env.BENCH_DIST ?? 'dist').split(',')
const STEPS = Number(process.env.BENCH_STEPS ?? 1000)
const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const PROFILE = process.env.BENCH_PROFILE === '1'
const SUPERSTEPS = STEPS + 1
const spec = cycleGraph(STEPS)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

/** One run in a new page's sandbox: ms per super-step (with `profile`, the sandbox's top self times too). */
async function run(browser: Browser, base: string, source?: string, profile = false) {
  const page = await browser.newPage()
  try {
    await page.goto(`${base}/sandbox-test.html`)
    await page.evaluate('window.__sandbox.ready')
    const stop = profile ? await startBrowserWorkerProfile(browser, /^blob:/) : null
    // A page script as a string: the spec and the program go in as JSON.
    const r = (await page.evaluate(
      `window.__sandbox.loop(${JSON.stringify(spec)}, ${source === undefined ? 'undefined' : JSON.stringify(source)})`,
    )) as { ms: number; steps: number; error?: unknown }
    if (r.error) throw new Error(`the loop failed: ${JSON.stringify(r.error)}`)
    // Posted: the input step, the super-steps, and parts of steps whose code waited.
    if (r.steps < SUPERSTEPS) throw new Error(`${r.steps} steps posted, not ${SUPERSTEPS}`)
    const top = stop ? await stop() : null
    return { perStep: r.ms / SUPERSTEPS, top }
  } finally {
    await page.close()
  }
}

const reference = await langGraphPerStep(spec, SUPERSTEPS)
for (const dist of DISTS) {
  const server = await startPreview('/', dist)
  const browser = await launchChromium()
  try {
    await run(browser, server.base) // warm-up: the browser's own caches
    const times: number[] = []
    for (let i = 0; i < RUNS; i++) times.push((await run(browser, server.base)).perStep)
    const ms = median(times)
    console.log(
      `${dist}: the loop beside the code, ${STEPS.toLocaleString('en')}-step one-node cycle, a fresh sandbox each run: ${ms.toFixed(3)} ms per super-step (median of ${RUNS}: ${times.map((t) => t.toFixed(3)).join(', ')}); LangGraph.js, MemorySaver, Node: ${reference.toFixed(3)} ms (${(ms / reference).toFixed(2)}x)`,
    )
    if (PROFILE) {
      const { text } = await buildSandboxLoop({ minify: false })
      const { perStep, top } = await run(browser, server.base, text, true)
      console.log(
        `  the sandbox's worker, unminified program (${perStep.toFixed(3)} ms a step), top self times:`,
      )
      for (const [where, t] of top ? await topSelfTimes(top, dist, 25) : [])
        console.log(`    ${t.toFixed(1).padStart(7)} ms  ${where}`)
    }
  } finally {
    await browser.close()
    server.close()
  }
}
