/**
 * TESTS ONLY. A CodeHost that runs code in this realm with `new Function`, copying values
 * in and out as postMessage would, and capturing `console.*` as task logs. It isolates
 * nothing: the app must never import it (the worker runs code in the sandbox).
 *
 * User code also sees `gate(key)`, a promise that settles when the test calls
 * `open(key)`: a way to hold a task in the middle of a super-step.
 */
import type {
  CodeHost,
  NodeHostCalls,
  RemoteNodeResult,
  ScratchpadData,
  TaskLog,
} from '../core/compile/host'
import { foldWrites } from '../core/channels/binaryOperatorAggregate'
import { END, START } from '../core/graph/constants'
import { nextAnswer } from '../core/pregel/interrupt'
import { Command, Send } from '../core/pregel/types'
import { toLogValue } from './sandbox/logValue'

const PAUSE = Symbol('pause')
type Fn = (...args: unknown[]) => unknown

export class LocalCodeHost implements CodeHost {
  private readonly gates = new Map<string, { promise: Promise<void>; open: () => void }>()
  /** Code calls started, by kind. */
  readonly calls = { node: 0, router: 0, reducer: 0, check: 0 }

  /** The promise `gate(key)` returns to user code. */
  gate(key: string): Promise<void> {
    let g = this.gates.get(key)
    if (!g) {
      let open!: () => void
      const promise = new Promise<void>((resolve) => (open = resolve))
      g = { promise, open }
      this.gates.set(key, g)
    }
    return g.promise
  }

  open(key: string): void {
    this.gate(key)
    this.gates.get(key)?.open()
  }

  async runNode(
    _owner: string,
    code: string,
    input: unknown,
    pad: ScratchpadData,
    calls?: NodeHostCalls,
  ): Promise<RemoteNodeResult> {
    this.calls.node += 1
    // As the sandbox does: each subgraph's invoke asks the runtime, values copied both ways.
    const subgraphs = Object.fromEntries(
      (calls?.subgraphs ?? []).map((name) => [
        name,
        {
          invoke: async (v: unknown) =>
            structuredClone(await calls?.invoke(name, structuredClone(v))),
        },
      ]),
    )
    const logs: TaskLog[] = []
    const state = {
      resume: [...pad.resume],
      nullResume: pad.nullResume,
      counter: pad.counter ?? -1,
    }
    let resume: unknown[] | null = null
    let paused: { value: unknown } | undefined
    // `config` as the sandbox gives it: the run's settings, and `custom` chunks sent back.
    const custom: unknown[] = []
    const config = calls?.configurable && {
      configurable: structuredClone(calls.configurable),
      writer: (chunk: unknown) => void custom.push(structuredClone(chunk)),
    }
    const withCustom = () => (custom.length ? { custom } : {})
    const interrupt = (value: unknown) => {
      const a = nextAnswer(state)
      if (a.found) {
        resume = a.resume
        return a.value
      }
      paused = { value }
      throw PAUSE
    }
    try {
      const fn = this.evaluate(code, logs, interrupt, subgraphs)
      const output = await fn(structuredClone(input), config)
      return { kind: 'ok', output: structuredClone(output), resume, logs, ...withCustom() }
    } catch (e) {
      if (e === PAUSE && paused)
        return { kind: 'interrupt', value: paused.value, resume, logs, ...withCustom() }
      throw e
    }
  }

  async runRouter(
    _owner: string,
    code: string,
    state: unknown,
    configurable?: Record<string, unknown>,
  ): Promise<unknown> {
    this.calls.router += 1
    const config = configurable && { configurable: structuredClone(configurable), writer() {} }
    return structuredClone(await this.evaluate(code, [])(structuredClone(state), config))
  }

  async foldReducer(_f: string, code: string, current: unknown, values: unknown[]) {
    this.calls.reducer += 1
    const reducer = this.evaluate(code, []) as (a: unknown, b: unknown) => unknown
    return foldWrites(reducer, structuredClone(current), structuredClone(values), (m) => {
      throw new Error(m)
    })
  }

  async check(_owner: string, _kind: string, code: string): Promise<string | null> {
    this.calls.check += 1
    const fn = this.evaluate(code, [])
    return typeof fn === 'function' ? null : `evaluates to ${typeof fn}, not a function.`
  }

  private evaluate(
    code: string,
    logs: TaskLog[],
    interrupt?: (v: unknown) => unknown,
    subgraphs: object = {},
  ): Fn {
    const started = Date.now()
    const log =
      (level: TaskLog['level']) =>
      (...args: unknown[]) =>
        logs.push({ level, args: args.map((a) => toLogValue(a)), at: Date.now() - started })
    const console = { log: log('log'), info: log('info'), warn: log('warn'), error: log('error') }
    const names = ['Send', 'Command', 'interrupt', 'START', 'END', 'console', 'gate', 'subgraphs']
    const make = new Function(...names, `"use strict";\nreturn (${code}\n)`) as Fn
    const noInterrupt = () => {
      throw new Error('Called interrupt() outside the context of a graph.')
    }
    const gate = (key: string) => this.gate(key)
    return make(Send, Command, interrupt ?? noInterrupt, START, END, console, gate, subgraphs) as Fn
  }
}
