/**
 * The test-only page (sandbox-test.html) for e2e/sandbox.spec.ts: a sandbox frame and a
 * SandboxCodeHost on the main thread, driven through `window.__sandbox`. It also shows how
 * an owner wires `onHung`: destroy the frame, create a fresh one, `replacePort`.
 */
import type { ScratchpadData } from '../../core/compile/host'
import { createSandboxFrame, type SandboxFrame, type SandboxFrameOptions } from './sandboxFrame'
import { loopProgram } from '../loopProgram'
import { SandboxCodeHost } from './sandboxHost'

/** A call's outcome as plain data (page.evaluate cannot carry an Error's fields). */
type Outcome =
  | { ok: true; value: unknown; ms: number }
  | {
      ok: false
      error: { name: string; message: string; line?: number; column?: number }
      ms: number
    }

interface Harness {
  host: SandboxCodeHost
  stats: { creates: number[]; recoveries: number[]; restarts: number }
}

async function openHarness(options: SandboxFrameOptions): Promise<Harness> {
  const stats = { creates: [] as number[], recoveries: [] as number[], restarts: 0 }
  const create = async () => {
    const started = performance.now()
    const frame = await createSandboxFrame(options)
    stats.creates.push(performance.now() - started)
    return frame
  }
  let frame: SandboxFrame = await create()
  const host = new SandboxCodeHost(frame.port, {
    onHung: () => {
      const hungAt = performance.now()
      frame.destroy()
      void create().then((fresh) => {
        frame = fresh
        host.replacePort(fresh.port)
        stats.restarts += 1
        stats.recoveries.push(performance.now() - hungAt)
      })
    },
  })
  return { host, stats }
}

async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  const started = performance.now()
  try {
    const value = await run()
    return { ok: true, value, ms: performance.now() - started }
  } catch (e) {
    const err = e as Error & { line?: number; column?: number }
    const error = { name: err.name, message: err.message, line: err.line, column: err.column }
    return { ok: false, error, ms: performance.now() - started }
  }
}

function api(harness: Promise<Harness>) {
  const pad: ScratchpadData = { resume: [] }
  return {
    runNode: async (code: string, input: unknown = {}, timeoutMs?: number, p = pad) => {
      const { host } = await harness
      return outcome(() =>
        host.runNode('n', code, input, p, undefined, undefined, timeoutMs ? { timeoutMs } : {}),
      )
    },
    runRouter: async (code: string, state: unknown = {}) => {
      const { host } = await harness
      return outcome(() => host.runRouter('r', code, state))
    },
    foldReducer: async (code: string, current: unknown, values: unknown[]) => {
      const { host } = await harness
      return outcome(() => host.foldReducer('f', code, current, values))
    },
    check: async (code: string) => {
      const { host } = await harness
      return outcome(() => host.check('n', 'node', code))
    },
    stats: async () => (await harness).stats,
    /**
     * A run beside the code of `spec` in this sandbox, with `source` as its loop program (by
     * default the build's), input `{}`, allowed to run ahead without bound: ms from the
     * request to the last step, and the steps posted (bench/besideLoop.bench.ts).
     */
    loop: async (spec: unknown, source?: string) => {
      const { host } = await harness
      source ??= loopProgram
      const started = performance.now()
      let steps = 0
      return new Promise<{ ms: number; steps: number; error?: unknown }>((resolve) => {
        const session = host.startLoop(
          {
            source,
            spec: spec as never,
            input: {},
            config: { threadId: 't', recursionLimit: 1e6 },
            seed: { at: undefined, head: undefined },
            incremental: true,
            timeoutMs: 5000,
            allow: Number.MAX_SAFE_INTEGER,
          },
          {
            message: (m) => {
              const b = m as { kind?: string; steps?: { status?: string; error?: unknown }[] }
              for (const step of b.steps ?? []) {
                steps += 1
                if (step.error || (step.status && step.status !== 'running')) {
                  session.close()
                  resolve({ ms: performance.now() - started, steps, error: step.error })
                }
              }
            },
            gone: (why) => resolve({ ms: performance.now() - started, steps, error: why }),
          },
        )
      })
    },
  }
}

/**
 * `n` tasks of a one-node cycle one after another (bench/sandboxRoundTrip.bench.ts): the node
 * and its router in one call each (`fused`), in two calls as before, or the node's call
 * alone (`'node'`, the floor of one round trip). Ms per task.
 */
async function timeTasks(n: number, fused: boolean | 'node'): Promise<number> {
  const { host } = await main
  const node = '(s) => ({ n: 1 })'
  const router = "(s) => s.n < 1e9 ? 'inc' : '__end__'"
  const route = { routers: [router], fields: [['n', 'add']] as [string, 'add'][] }
  let state = { n: 0 }
  const started = performance.now()
  for (let i = 0; i < n; i++) {
    const pad = { resume: [] }
    if (fused === 'node') {
      await host.runNode('inc', node, state, pad)
    } else if (fused) {
      const r = await host.runNode('inc', node, state, pad, undefined, route)
      if (r.kind !== 'ok' || r.routes?.[0]?.() !== 'inc') throw new Error('not routed')
    } else {
      await host.runNode('inc', node, state, pad)
      await host.runRouter('inc', router, { n: state.n + 1 })
    }
    state = { n: state.n + 1 }
  }
  return (performance.now() - started) / n
}

/** Creates and destroys `n` frames one after another: ms to a port, ms to a first reply. */
async function timeCreate(n: number): Promise<{ port: number; firstReply: number }[]> {
  const times = []
  for (let i = 0; i < n; i++) {
    const started = performance.now()
    const frame = await createSandboxFrame()
    const port = performance.now() - started
    const host = new SandboxCodeHost(frame.port)
    await host.runRouter('r', '() => 1', {})
    times.push({ port, firstReply: performance.now() - started })
    host.dispose()
    frame.destroy()
  }
  return times
}

const main = openHarness({})
let network: ReturnType<typeof api> | null = null

declare global {
  interface Window {
    __sandbox: ReturnType<typeof api> & {
      ready: Promise<unknown>
      network: () => ReturnType<typeof api>
      timeCreate: typeof timeCreate
      timeTasks: typeof timeTasks
    }
  }
}

window.__sandbox = {
  ...api(main),
  ready: main.then(() => true),
  network: () => (network ??= api(openHarness({ allowNetwork: true }))),
  timeCreate,
  timeTasks,
}

let pings = 0
document.getElementById('ping')?.addEventListener('click', () => {
  pings += 1
  const out = document.getElementById('pings')
  if (out) out.textContent = String(pings)
})
