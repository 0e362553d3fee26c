/**
 * Where a super-step's time goes in the page (issue 18, "the run in the browser"): the
 * 1,000-step one-node cycle with sandboxed code, every checkpoint in IndexedDB, run from the
 * built app in real Chromium, BENCH_RUNS times (each on a new thread). The runtime worker's
 * timing hook (src/worker/stepProfile.ts, switched on here through `self.__superstepProfile`)
 * sums the time of its sandbox calls, saver writes, task-run writes and event posts; the
 * table gives each part in ms per super-step (medians over the runs) beside the reference,
 * LangGraph.js with MemorySaver on the same graph in Node, measured in this process. Each
 * hooked run is followed by one without the hook (none with BENCH_TRACE): the headline, the
 * run in the page against LangGraph.js, is their median, a run as a user's goes.
 * Sandbox calls and saver writes are awaited one after another by the step; `saver.flush` is
 * the commit of the checkpoints still batched in memory, awaited at the run's end (and at each
 * pause); task-run writes overlap the next steps (shown, not counted in the sum; with batched
 * commits they last until their batch commits and overlap each other); so do the batches'
 * IndexedDB commits (`batch.commit`, one at a time beside the steps: while they keep pace, the
 * run cannot be faster than their sum, and on a loaded 2-core machine that sum is most of
 * the run); "rest" is the worker's span minus
 * the awaited parts (the runtime itself, its events, waits between them). Two more lines split
 * the page's time outside that span: from the click to the worker's first hooked part
 * (compile, sandbox lease), and from its last to "done" in the page (the last events drawn).
 * A code node's routers run in its sandbox call (src/core/compile/fusedRoutes.ts), so the cycle
 * shows `sandbox.node` only. BENCH_PROFILE=1 prints the runtime worker's and the page's top
 * self times (source-mapped) over the last run. BENCH_TRACE=1 also marks each hop of a sandbox
 * call on both sides (stepProfile's `trace`) and prints them (mean, p50, p90 per call), with the
 * share of the run spent in calls that overlap the page's reads (timeline, inspection).
 *   Run: npm run build:test && npx tsx bench/runProfile.bench.ts
 *   (BENCH_DIST picks the build, or builds to compare: BENCH_DIST=/tmp/before,/tmp/after;
 *   BENCH_STEPS the cycle's length, BENCH_RUNS the repeats; BENCH_GRAPH=chain a chain of
 *   BENCH_STEPS nodes, one a step, in place of the cycle.)
 */
import type { Page, Worker } from 'playwright-core'
import type { StepProfile } from '../src/worker/stepProfile'
import { launchChromium, startPreview } from './browser'
import { startProfile, startWorkerProfile, topSelfTimes } from './cpuProfile'
import { chainGraph, cycleGraph } from './graphs'
import { langGraphPerStep } from './langGraphRef'

/** One build, or several (comma-separated: e.g. before and after a change), each profiled. */
const DISTS = (process.env.BENCH_DIST ?? 'dist').split(',')
const STEPS = Number(process.env.BENCH_STEPS ?? 1000)
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
/** BENCH_GRAPH=chain profiles a chain of BENCH_STEPS nodes instead (as many super-steps). */
const graphOf = process.env.BENCH_GRAPH === 'chain' ? chainGraph : cycleGraph
const GRAPH_NAME =
  process.env.BENCH_GRAPH === 'chain'
    ? `${STEPS.toLocaleString('en')}-node chain`
    : `${STEPS.toLocaleString('en')}-step one-node cycle`
/** BENCH_PROFILE=1: the runtime worker's top self times over the last run (source-mapped). */
const PROFILE = process.env.BENCH_PROFILE === '1'
/**
 * BENCH_TRACE=1: the worker and its sandbox also mark each hop of a step (stepProfile's
 * `trace`): the table then gives the time between consecutive marks, per step, in order.
 */
const TRACE = process.env.BENCH_TRACE === '1'
/** Super-steps one run executes, START's included. */
const SUPERSTEPS = STEPS + 1

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

function runtimeWorker(page: Page): Worker {
  const w = page.workers().find((x) => /runtime/.test(x.url()))
  if (!w) throw new Error('no runtime worker')
  return w
}

interface RunSample {
  /** From the click on Run to "done" in the page (both timed in the page). */
  pageMs: number
  /** First to last hooked operation in the worker. */
  workerMs: number
  /** From the click to the worker's first hooked operation (compile, sandbox start). */
  startMs: number
  /** From the worker's last hooked operation to "done" in the page. */
  tailMs: number
  parts: Record<string, { ms: number; n: number }>
  /** With BENCH_TRACE: the marks, in the order recorded. */
  trace?: [string, number][]
}

/**
 * Records in the page when the Run button is clicked and when the run status first reads done
 * or failed (`window.__runTimes`, epoch ms, comparable with the worker's timeOrigin-based times).
 */
const WATCH_OUTCOME = `(() => {
  const at = () => performance.timeOrigin + performance.now()
  const times = (window.__runTimes = [NaN, NaN])
  document.addEventListener('click', (e) => {
    if (Number.isNaN(times[0]) && e.target.closest('button')?.textContent?.trim() === 'Run') times[0] = at()
  }, { capture: true })
  const observer = new MutationObserver(() => {
    const text = document.querySelector('[aria-label="Run status"]')?.textContent ?? ''
    if (/done|failed/i.test(text) && !Number.isNaN(times[0])) {
      times[1] = at()
      observer.disconnect()
    }
  })
  observer.observe(document.body, { subtree: true, childList: true, characterData: true })
})()`

/**
 * One run on a new thread, profiled in the worker (`hooked`: the timing hook on; off, only
 * the page's click-to-done is timed, as a user's run goes).
 */
async function profiledRun(
  page: Page,
  dist: string,
  cpu = false,
  hooked = true,
): Promise<RunSample> {
  await page.getByRole('button', { name: 'New thread', exact: true }).click()
  await page.getByRole('button', { name: 'Run', exact: true }).waitFor()
  await page.waitForTimeout(300)
  // Run settings are the thread's: a new thread starts at the default limit.
  await page.getByLabel('Recursion limit').fill(String(STEPS + 10))
  const worker = runtimeWorker(page)
  if (hooked) await worker.evaluate(`self.__superstepProfile = ${TRACE ? '{ trace: [] }' : '{}'}`)
  const stopCpu = cpu ? await startWorkerProfile(page, /runtime/) : null
  const stopPageCpu = cpu ? await startProfile(page) : null
  // The click and the outcome are timed in the page (epoch ms): Playwright's polling of the
  // status would add up to half a second to a run.
  await page.evaluate(WATCH_OUTCOME)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await page
    .getByLabel('Run status')
    .filter({ hasText: /done|failed/i })
    .waitFor({ timeout: 300_000 })
  const [t0, tDone] = (await page.evaluate('window.__runTimes')) as [number, number]
  const pageMs = tDone - t0
  for (const [thread, stop] of [
    ['runtime worker', stopCpu],
    ['page', stopPageCpu],
  ] as const) {
    const cpuProfile = stop && (await stop())
    if (!cpuProfile) continue
    console.log(`  ${thread}, top self times over one run (ms):`)
    for (const [where, ms] of await topSelfTimes(cpuProfile, dist, 20))
      console.log(`    ${ms.toFixed(1).padStart(8)}  ${where}`)
  }
  const outcome = await page.getByLabel('Run status').textContent()
  if (outcome?.toLowerCase() !== 'done')
    throw new Error(`the run ended ${outcome}: ${await page.getByLabel('Run error').textContent()}`)
  if (!hooked) return { pageMs, workerMs: NaN, startMs: NaN, tailMs: NaN, parts: {} }
  const profile = (await worker.evaluate(
    '(() => { const p = self.__superstepProfile; self.__superstepProfile = undefined; return { ...p, origin: performance.timeOrigin } })()',
  )) as StepProfile & { origin: number }
  return {
    pageMs,
    workerMs: (profile.last ?? 0) - (profile.first ?? 0),
    startMs: profile.origin + (profile.first ?? 0) - t0,
    tailMs: tDone - (profile.origin + (profile.last ?? 0)),
    parts: profile.parts ?? {},
    ...(profile.trace && { trace: profile.trace }),
  }
}

/**
 * The hops of each sandbox call, from its trace marks (in the order pushed: each call from its
 * `host.send` to the next's). Chromium coarsens performance.now() to 100 µs with jitter
 * outside cross-origin isolation, so only the averages over many calls mean anything; the
 * sandbox's marks are on its own process's clock, so the two one-way hops may carry an
 * offset (their sum does not).
 */
const HOPS: [string, string, string][] = [
  ['host posts the request', 'host.send', 'host.posted'],
  ['-> sandbox receives it', 'host.posted', 'sb.recv'],
  ['sandbox begins it (`started` only if it must)', 'sb.recv', 'sb.started'],
  ['node code', 'sb.started', 'sb.node'],
  ['posts `routing`', 'sb.node', 'sb.routing'],
  ['router code', 'sb.routing', 'sb.routed'],
  ['  (routers, from the end of the node)', 'sb.node', 'sb.routed'],
  ['builds the reply', 'sb.routed', 'sb.reply'],
  ['-> host receives the reply', 'sb.reply', 'host.ok'],
  ['  (started arrives, from send)', 'host.send', 'host.started'],
  ['  (routing arrives, from send)', 'host.send', 'host.routing'],
  ['reply to the call resolved', 'host.ok', 'sandbox.node>'],
  ['resolved to the next send', 'sandbox.node>', 'next.send'],
  ['one call to the next (send to send)', 'host.send', 'next.send'],
]

function hops(samples: RunSample[]): void {
  const perRun = samples.map((s) => {
    const calls: Map<string, number>[] = []
    let call: Map<string, number> | undefined
    for (const [name, at] of s.trace ?? []) {
      if (name === 'host.send') {
        call?.set('next.send', at)
        call = new Map()
        calls.push(call)
      }
      if (call && !call.has(name)) call.set(name, at)
    }
    return HOPS.map(([, from, to]) => {
      const ds = calls.flatMap((c) => {
        const [a, b] = [c.get(from), c.get(to)]
        return a === undefined || b === undefined ? [] : [b - a]
      })
      const sorted = ds.sort((x, y) => x - y)
      const at = (q: number) => sorted[Math.floor(q * (sorted.length - 1))] ?? NaN
      return {
        mean: ds.reduce((x, y) => x + y, 0) / Math.max(ds.length, 1),
        p50: at(0.5),
        p90: at(0.9),
        n: ds.length,
      }
    })
  })
  // The page's reads while the run goes (the timeline's refresh, the inspection of the newest
  // checkpoint): how much of the run's time passes in the calls they overlap.
  const overlap = samples.map((s) => {
    const reads: [number, number][] = []
    const open = new Map<string, number>()
    const calls: [number, number][] = []
    const names = new Set<string>()
    let last: number | undefined
    for (const [name, at] of s.trace ?? []) {
      const m = /^request\.(.*)([<>])$/.exec(name)
      // The run's own request lasts the whole run, the sandbox's port its lease: only reads count.
      if (m && /^(run|continue|sandboxPort)$/.test(m[1]!)) continue
      if (m?.[2] === '<') open.set(m[1]!, at)
      else if (m?.[2] === '>' && open.has(m[1]!)) {
        reads.push([open.get(m[1]!)!, at])
        names.add(m[1]!)
      }
      if (name === 'host.send') {
        if (last !== undefined) calls.push([last, at])
        last = at
      }
    }
    let during = 0
    let n = 0
    let all = 0
    for (const [a, b] of calls) {
      all += b - a
      if (reads.some(([x, y]) => x < b && y > a)) {
        during += b - a
        n += 1
      }
    }
    return {
      during,
      n,
      all,
      calls: calls.length,
      reads: reads.length,
      names: [...names].join(', '),
    }
  })
  const o = (k: Exclude<keyof (typeof overlap)[number], 'names'>) =>
    median(overlap.map((x) => x[k]))
  console.log(
    `  the page's reads during the run (${overlap[0]?.names}): ${o('reads')}; the ${o('n')} of ${o('calls')} calls they overlap take ${((100 * o('during')) / o('all')).toFixed(0)}% of the time from send to send (${(o('during') / Math.max(o('n'), 1)).toFixed(2)} ms each, the others ${((o('all') - o('during')) / Math.max(o('calls') - o('n'), 1)).toFixed(3)} ms)`,
  )
  console.log(
    '  a sandbox call, hop by hop (ms over the calls: mean, p50, p90; medians over the runs):',
  )
  HOPS.forEach(([label], i) => {
    const cell = (k: 'mean' | 'p50' | 'p90') =>
      median(perRun.map((r) => r[i]![k]))
        .toFixed(3)
        .padStart(7)
    const n = median(perRun.map((r) => r[i]!.n))
    console.log(`    ${cell('mean')} ${cell('p50')} ${cell('p90')}  ${label} (${n} calls)`)
  })
}

/** Parts awaited by the step, one after another (their sum is taken from the span). */
const AWAITED = [
  'sandbox.node',
  'sandbox.router',
  'saver.put',
  'saver.putWrites',
  'saver.getTuple',
  'saver.flush',
  'events.post',
  // A run beside the code (src/worker/remoteRun.ts): the worker waits for the sandbox's steps.
  'beside.wait',
]
/** Shown, not summed: overlapping the steps, or (beside.replay) holding the saver's parts. */
const OVERLAPPED = ['taskRuns.write', 'batch.commit', 'beside.replay']

/** The parts from the hooked runs; the headline from the `plain` ones (without the hook), if any. */
function table(samples: RunSample[], plain: RunSample[], reference: number): void {
  const perStep = (ms: number) => ms / SUPERSTEPS
  const names = [...new Set(samples.flatMap((s) => Object.keys(s.parts)))]
  const ordered = [
    ...AWAITED.filter((n) => names.includes(n)),
    ...names.filter(
      (n) => !AWAITED.includes(n) && !OVERLAPPED.includes(n) && n !== 'events.pushed',
    ),
  ]
  const rows: string[][] = [['part', 'ms/step', 'calls/step', 'share']]
  const workerMs = median(samples.map((s) => s.workerMs))
  const partMs = (n: string) => median(samples.map((s) => s.parts[n]?.ms ?? 0))
  const partN = (n: string) => median(samples.map((s) => s.parts[n]?.n ?? 0))
  let awaited = 0
  for (const n of ordered) {
    const ms = partMs(n)
    awaited += ms
    rows.push([
      n,
      perStep(ms).toFixed(3),
      (partN(n) / SUPERSTEPS).toFixed(2),
      `${((100 * ms) / workerMs).toFixed(0)}%`,
    ])
  }
  const rest = workerMs - awaited
  rows.push([
    'rest (runtime, waits)',
    perStep(rest).toFixed(3),
    '',
    `${((100 * rest) / workerMs).toFixed(0)}%`,
  ])
  rows.push(['total in the worker', perStep(workerMs).toFixed(3), '', '100%'])
  for (const n of OVERLAPPED.filter((x) => names.includes(x)))
    rows.push([
      n === 'beside.replay' ? '(beside.replay, saver parts in it)' : `(${n}, overlapped)`,
      perStep(partMs(n)).toFixed(3),
      (partN(n) / SUPERSTEPS).toFixed(2),
      '',
    ])
  rows.push([
    '(events queued / posts)',
    (partN('events.pushed') / SUPERSTEPS).toFixed(2),
    ((partN('events.post') * 1000) / SUPERSTEPS).toFixed(1) + '/1000',
    '',
  ])
  const hookedMs = median(samples.map((s) => s.pageMs))
  rows.push(['Run click to "done" (page)', perStep(hookedMs).toFixed(3), '', ''])
  const whole = (ms: number) => `${ms.toFixed(0)} ms per run`
  rows.push([
    '  click to the first hooked part',
    whole(median(samples.map((s) => s.startMs))),
    '',
    '',
  ])
  rows.push(['  last hooked part to "done"', whole(median(samples.map((s) => s.tailMs))), '', ''])
  // The headline: the runs without the hook, which costs the worker a clock read and a sum
  // per hooked part (about 0.03 ms a step).
  const pageMs = plain.length ? median(plain.map((s) => s.pageMs)) : hookedMs
  if (plain.length)
    rows.push(['Run click to "done", hook off (page)', perStep(pageMs).toFixed(3), '', ''])
  rows.push(['LangGraph.js, MemorySaver, Node', reference.toFixed(3), '', ''])
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  for (const r of rows)
    console.log(
      `  ${r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}`,
    )
  const ratio = perStep(pageMs) / reference
  console.log(
    `  the run in the page: ${perStep(pageMs).toFixed(2)} ms per super-step = ${ratio.toFixed(2)}x LangGraph.js in Node (goal: at most 1 ms, below LangGraph.js)`,
  )
}

async function main() {
  const reference = await langGraphPerStep(graphOf(STEPS), SUPERSTEPS)
  for (const dist of DISTS) await profileBuild(dist, reference)
}

async function profileBuild(dist: string, reference: number) {
  const server = await startPreview('/', dist)
  try {
    const browser = await launchChromium()
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    page.on('pageerror', (e) => console.error('  page error:', e.message))
    await page.goto(`${server.base}/`)
    await page.getByRole('button', { name: 'Run', exact: true }).waitFor()
    await page.getByLabel('Import a graph file').setInputFiles({
      name: 'cycle.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(graphOf(STEPS))),
    })
    await page.getByRole('button', { name: 'Trust and allow running' }).click()
    // Runs with the timing hook (the table's parts) alternate with runs without it (the
    // headline), so drift on a shared machine falls on both alike.
    const samples: RunSample[] = []
    const plain: RunSample[] = []
    for (let i = 0; i < RUNS; i++) {
      samples.push(await profiledRun(page, dist, PROFILE && i === RUNS - 1))
      if (!TRACE) plain.push(await profiledRun(page, dist, false, false))
    }
    console.log(
      `The ${GRAPH_NAME} in the page (sandboxed code, IndexedDB), per super-step, median of ${RUNS} runs${DISTS.length > 1 ? ` (${dist})` : ''}:`,
    )
    table(samples, plain, reference)
    if (TRACE) hops(samples)
    await browser.close()
  } finally {
    server.close()
  }
}

await main()
