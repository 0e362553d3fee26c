/**
 * What one task of the one-node cycle costs in sandbox round trips (issue 18): the node and
 * its router in one call (the node's call runs its routers, see src/core/compile/fusedRoutes.ts)
 * against two calls and against the node's call alone, alternated in one page (sandbox-test.html, the host on the page's
 * thread), so the machine's load falls on both alike. Needs a test build.
 *   Run: BENCH_DIST=/tmp/dist-me npx tsx bench/sandboxRoundTrip.bench.ts
 *   (BENCH_DIST: comma-separated builds, each measured; BENCH_TASKS, BENCH_ROUNDS.)
 */
import { launchChromium, startPreview } from './browser'

const DISTS = (process.env.BENCH_DIST ?? 'dist').split(',')
const TASKS = Number(process.env.BENCH_TASKS ?? 500)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)

/** ms per round trip of a node request to an echoing worker in the page's own process. */
const LOCAL_ECHO = (n: number) => `(async () => {
  const echo = 'onmessage = (e) => postMessage({ id: e.data.id, kind: "ok", value: { n: 1 } })'
  const w = new Worker(URL.createObjectURL(new Blob([echo], { type: 'text/javascript' })))
  const req = { type: 'runNode', owner: 'inc', code: '(s) => ({ n: 1 })', input: { n: 5 }, pad: { resume: [] } }
  const ms = await new Promise((resolve) => {
    let i = 0
    const t0 = performance.now()
    w.onmessage = () => (++i === ${n} ? resolve((performance.now() - t0) / ${n}) : w.postMessage({ ...req, id: i }))
    w.postMessage({ ...req, id: 0 })
  })
  w.terminate()
  return ms
})()`

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN

async function measure(dist: string): Promise<void> {
  const server = await startPreview('/', dist)
  const browser = await launchChromium()
  try {
    const page = await browser.newPage()
    await page.goto(`${server.base}/sandbox-test.html`)
    await page.evaluate('window.__sandbox.ready')
    const times: Record<'fused' | 'two' | 'node', number[]> = { fused: [], two: [], node: [] }
    await page.evaluate(`window.__sandbox.timeTasks(200, true)`) // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      const modes = ['fused', 'two', 'node'] as const
      for (let k = 0; k < modes.length; k++) {
        const mode = modes[(k + r) % modes.length] as (typeof modes)[number]
        const arg = mode === 'fused' ? 'true' : mode === 'two' ? 'false' : "'node'"
        const ms = (await page.evaluate(`window.__sandbox.timeTasks(${TASKS}, ${arg})`)) as number
        times[mode].push(ms)
      }
    }
    const [fused, two, node] = [median(times.fused), median(times.two), median(times.node)]
    console.log(
      `${dist}: ms per task, median of ${ROUNDS} rounds of ${TASKS}: node and router in one call ${fused.toFixed(3)}, in two calls ${two.toFixed(3)} (one call: ${(fused / two).toFixed(2)}x); the node's call alone ${node.toFixed(3)}`,
    )
    // The floor of a round trip with no process between: a worker of the page's own (which
    // would not isolate user code: see docs/worker-protocol.md, Security), the same message.
    // A blank page: the app's pages allow no blob: worker (see src/csp.ts).
    const blank = await browser.newPage()
    await blank.goto('data:text/html,<title>echo</title>')
    const local: number[] = []
    for (let r = 0; r < ROUNDS; r++) local.push((await blank.evaluate(LOCAL_ECHO(TASKS))) as number)
    console.log(
      `  the same request echoed by a worker in the page's own process: ${median(local).toFixed(3)} ms a round trip (the sandbox's frame and worker run in a process of their own)`,
    )
  } finally {
    await browser.close()
    server.close()
  }
}

for (const dist of DISTS) await measure(dist)
