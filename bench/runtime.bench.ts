/**
 * Time per super-step of Superstep's runtime and of LangGraph.js on the same graphs, both
 * with an in-memory checkpointer, measured in the same run so the ratio means something on
 * a noisy machine. Each side of each graph runs in a fresh Node process of its own (this file,
 * with BENCH_SIDE set), one after the other: neither side's timings include collecting the
 * other's garbage or a JIT state the other left, which in one shared process moved our side's
 * per-step time by up to 3x from run to run. BENCH_SHARED=1 measures in this process instead.
 *   Run: npm run bench (or npx tsx bench/runtime.bench.ts)
 */
import { spawnSync } from 'node:child_process'
import { setMaxListeners } from 'node:events'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { MemorySaver as LangGraphMemorySaver } from '@langchain/langgraph'
import { systemEnv } from '../src/lib/env'
import { MemorySaver } from '../src/core/checkpoint/memorySaver'
import { compileGraph } from '../src/core/compile/compileGraph'
import { evaluateLocally } from '../src/core/compile/evaluate'
import { parseGraph } from '../src/core/graph/validate'
import type { GraphSpec } from '../src/core/graph/schema'
import { GraphRuntime } from '../src/core/pregel/runtime'
import { buildLangGraph } from '../src/differential/oracle'
import { chainGraph, cycleGraph, fanOutGraph, fanOutInput } from './graphs'

interface Case {
  label: string
  spec: GraphSpec
  input: unknown
  /** Super-steps one run executes, START's included. */
  steps: number
}

const RUNS = Number(process.env.BENCH_RUNS ?? 7)
/** BENCH_SHARED=1: both sides in this one process, as before (see the file comment). */
const SHARED = process.env.BENCH_SHARED === '1'
const MIN_MS = 1500

const cases: Case[] = [
  { label: '(a) one-node cycle, 1,000 steps', spec: cycleGraph(1000), input: {}, steps: 1001 },
  { label: '(b) 100-node chain', spec: chainGraph(100), input: {}, steps: 101 },
  {
    label: '(c) 64-way Send fan-out + join',
    spec: fanOutGraph(64),
    input: fanOutInput(64),
    steps: 3,
  },
]

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] as number
}

/** Median wall and CPU time of a run, in ms. */
interface Timing {
  wall: number
  /**
   * This process's CPU time (user + system, every thread: GC included): what the run cost,
   * much less moved than wall time by other processes on a loaded machine.
   */
  cpu: number
}

/** Median time of `run`; at least RUNS runs and, for fast runs, enough to fill MIN_MS. */
async function timeRuns(run: (i: number) => Promise<void>): Promise<Timing> {
  const warm = performance.now()
  await run(-1) // warm-up
  const first = performance.now() - warm
  const count = Math.max(RUNS, Math.min(200, Math.ceil(MIN_MS / Math.max(first, 0.01))))
  for (let i = 0; i < Math.min(20, count); i++) await run(-2 - i) // let the JIT settle
  const times: number[] = []
  const cpuTimes: number[] = []
  for (let i = 0; i < count; i++) {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    await run(i)
    times.push(performance.now() - t0)
    const c = process.cpuUsage(c0)
    cpuTimes.push((c.user + c.system) / 1000)
  }
  return { wall: median(times), cpu: median(cpuTimes) }
}

async function benchSuperstep(c: Case): Promise<Timing> {
  const parsed = parseGraph(c.spec)
  if (!parsed.ok) throw new Error(`invalid bench graph ${c.label}`)
  const graph = compileGraph(parsed.spec, { evaluate: evaluateLocally, newId: systemEnv.newId })
  return timeRuns(async () => {
    const runtime = new GraphRuntime({ graph, saver: new MemorySaver(), env: systemEnv })
    await runtime.invoke(c.input, { threadId: 't', recursionLimit: c.steps + 10 })
  })
}

async function benchLangGraph(c: Case): Promise<Timing> {
  const { graph } = buildLangGraph(c.spec as Parameters<typeof buildLangGraph>[0])
  return timeRuns(async (i) => {
    // A fresh saver per run, as on our side: no run pays for the history of the ones before
    // (a saver kept across runs grows the heap, and the garbage collector slows both sides).
    graph.checkpointer = new LangGraphMemorySaver()
    await graph.invoke(c.input, {
      configurable: { thread_id: `t${i}` },
      recursionLimit: c.steps + 10,
    })
  })
}

const fmt = (ms: number) => `${(ms * 1000).toFixed(1)} µs`

const CLI_STEPS = 20000
const CLI_RUNS = Number(process.env.BENCH_CLI_RUNS ?? 3)
/**
 * The trees whose CLI runs (`BENCH_CLI_TREES=/tmp/base,/work/main`: a copy of an older commit
 * with node_modules linked, against this one, in the same run); by default this tree.
 */
const CLI_TREES = (process.env.BENCH_CLI_TREES ?? fileURLToPath(new URL('..', import.meta.url)))
  .split(',')
  .filter((t) => t !== '')

/**
 * The CLI's `run` (a process that parses the file, runs the graph and prints the report)
 * on a 20,000-step cycle, per step: its time less that of a 1-step cycle (start-up and
 * compile are not per step), against the same run in this process. Medians of CLI_RUNS.
 */
async function benchCli(): Promise<{ cli: Timing[]; inProcess: Timing }> {
  const dir = mkdtempSync(join(tmpdir(), 'superstep-bench-'))
  try {
    const file = (n: number) => {
      const path = join(dir, `cycle-${n}.json`)
      writeFileSync(path, JSON.stringify(cycleGraph(n)))
      return path
    }
    const big = file(CLI_STEPS)
    const small = file(1)
    const cli = (root: string, path: string): Timing => {
      const c0 = childCpuMs()
      const t0 = performance.now()
      const main = join(root, 'src/cli/main.ts')
      const r = spawnSync(
        process.execPath,
        ['--import', 'tsx', main, 'run', path, '--recursion-limit', String(CLI_STEPS + 10)],
        { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
      )
      if (r.status !== 0) throw new Error(`superstep run ${path} exited ${r.status}`)
      return { wall: performance.now() - t0, cpu: childCpuMs() - c0 }
    }
    // Each tree's runs interleaved, so that the machine's load falls on all of them alike.
    const bigTimes: Timing[][] = CLI_TREES.map(() => [])
    const smallTimes: Timing[][] = CLI_TREES.map(() => [])
    for (let i = 0; i < CLI_RUNS; i++) {
      CLI_TREES.forEach((root, t) => {
        smallTimes[t]!.push(cli(root, small))
        bigTimes[t]!.push(cli(root, big))
      })
    }
    const parsed = parseGraph(cycleGraph(CLI_STEPS))
    if (!parsed.ok) throw new Error('invalid bench graph')
    const graph = compileGraph(parsed.spec, { evaluate: evaluateLocally, newId: systemEnv.newId })
    const inProcess: Timing[] = []
    for (let i = 0; i < CLI_RUNS + 1; i++) {
      const runtime = new GraphRuntime({ graph, saver: new MemorySaver(), env: systemEnv })
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      await runtime.invoke({}, { threadId: 't', recursionLimit: CLI_STEPS + 10 })
      const c = process.cpuUsage(c0)
      // The first warms up.
      if (i > 0) inProcess.push({ wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 })
    }
    const cliPer = (t: number, k: keyof Timing) =>
      (median(bigTimes[t]!.map((x) => x[k])) - median(smallTimes[t]!.map((x) => x[k]))) / CLI_STEPS
    const inProcessPer = (k: keyof Timing) => median(inProcess.map((t) => t[k])) / (CLI_STEPS + 1)
    return {
      cli: CLI_TREES.map((_, t) => ({ wall: cliPer(t, 'wall'), cpu: cliPer(t, 'cpu') })),
      inProcess: { wall: inProcessPer('wall'), cpu: inProcessPer('cpu') },
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * CPU time (user + system) of this process's finished children, in ms, from /proc (Linux;
 * 10 ms ticks, fine for runs of seconds); NaN elsewhere.
 */
function childCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // Fields 16 and 17 of stat(5), cutime and cstime; the split starts at field 3.
    return (Number(fields[13]) + Number(fields[14])) * 10
  } catch {
    return NaN
  }
}

/** The side of one case that a child process measures: BENCH_SIDE=ours:0, langgraph:2, ... */
const SIDE = /^(ours|langgraph):(\d+)$/.exec(process.env.BENCH_SIDE ?? '')

/** One side of case `i` timed in a fresh process (see the file comment). */
function timeInChild(side: 'ours' | 'langgraph', i: number): Timing {
  const r = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_SIDE: `${side}:${i}` },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  })
  const last = r.stdout.trim().split('\n').pop() ?? ''
  if (r.status !== 0 || !last.startsWith('{'))
    throw new Error(`${side} of case ${i}: exit ${r.status}`)
  return JSON.parse(last) as Timing
}

async function main() {
  if (SIDE) {
    const c = cases[Number(SIDE[2])]
    if (!c) throw new Error(`no case ${SIDE[2]}`)
    // LangGraph.js listens to one run's abort signal from each of its tasks: the 64-way
    // fan-out is over Node's default of 10, which is no leak (each run lets them go), and
    // the warnings would fill the bench's output.
    setMaxListeners(0)
    const t = SIDE[1] === 'ours' ? await benchSuperstep(c) : await benchLangGraph(c)
    console.log(JSON.stringify(t))
    return
  }
  // BENCH_ONLY=cli: only the CLI's line, without (a)-(c).
  if (process.env.BENCH_ONLY !== 'cli') await benchCases()
  if (process.env.BENCH_CLI === '0') return
  const { cli, inProcess } = await benchCli()
  CLI_TREES.forEach((tree, t) => {
    const c = cli[t]!
    const line = (k: keyof Timing) =>
      `${fmt(c[k])} against ${fmt(inProcess[k])} in process: ${(c[k] / inProcess[k]).toFixed(2)}x the in-process cost`
    const of = CLI_TREES.length > 1 ? ` (${tree})` : ''
    console.log(
      `\nCLI \`run\`${of}, ${CLI_STEPS.toLocaleString('en')}-step cycle, per step (start-up subtracted), goal at most 2x:\n  wall time: ${line('wall')}\n  CPU time:  ${line('cpu')}`,
    )
  })
}

/** The table of (a)-(c). */
async function benchCases() {
  console.log(
    `Per super-step: median of at least ${RUNS} runs (more for fast ones) after warm-up runs, MemorySaver on both sides, ${SHARED ? 'both sides in this process' : 'each side in a fresh process'}; wall time, then the process's CPU time.\n`,
  )
  const rows: string[][] = [
    ['graph', 'Superstep', 'LangGraph.js', 'ratio', 'CPU time: Superstep', 'LangGraph.js', 'ratio'],
  ]
  for (const [i, c] of cases.entries()) {
    const ours = SHARED ? await benchSuperstep(c) : timeInChild('ours', i)
    const theirs = SHARED ? await benchLangGraph(c) : timeInChild('langgraph', i)
    const cells = (k: keyof Timing) => [
      fmt(ours[k] / c.steps),
      fmt(theirs[k] / c.steps),
      `${(theirs[k] / ours[k]).toFixed(1)}x faster`,
    ]
    rows.push([c.label, ...cells('wall'), ...cells('cpu')])
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  for (const r of rows) console.log(r.map((cell, i) => cell.padEnd(widths[i]!)).join('  '))
}

await main()
