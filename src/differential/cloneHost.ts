/**
 * A CodeHost that runs code in this realm but makes every value cross a structured-clone
 * boundary, as the browser's sandbox does: what goes in and what comes out are copies, and
 * Send/Command come back as plain objects. Running the differential suite through it proves
 * the runtime's sandboxed path (remote nodes, routers, folded reducers, interrupts by
 * scratchpad) behaves exactly like the local one. Tests only.
 */
import { foldWrites } from '../core/channels/binaryOperatorAggregate'
import { routerState, type RouteRequest } from '../core/compile/fusedRoutes'
import { NAMED_REDUCERS, type Reducer } from '../core/reducers/named'
import type {
  CodeHost,
  NodeHostCalls,
  RemoteNodeResult,
  ScratchpadData,
} from '../core/compile/host'
import { END, START } from '../core/graph/constants'
import { nextAnswer } from '../core/pregel/interrupt'
import { Command, Send } from '../core/pregel/types'

const PAUSE = Symbol('pause')

function evaluate(
  code: string,
  interrupt: (v: unknown) => unknown,
  subgraphs: object = {},
): (...a: unknown[]) => unknown {
  const make = new Function(
    'Send',
    'Command',
    'interrupt',
    'START',
    'END',
    'subgraphs',
    `"use strict";\nreturn (${code}\n)`,
  )
  return make(Send, Command, interrupt, START, END, subgraphs) as (...a: unknown[]) => unknown
}

/**
 * `subgraphs` as the sandbox gives it: each `invoke` asks the runtime, its input and output
 * copied, and what it raises (an interrupt or handoff inside too) a plain Error of the same
 * name and message, as it crosses the boundary.
 */
function subgraphsOf(calls: NodeHostCalls | undefined): object {
  const out: Record<string, { invoke(input: unknown): Promise<unknown> }> = {}
  for (const name of calls?.subgraphs ?? []) {
    out[name] = {
      invoke: async (input) => {
        try {
          return cross(await calls?.invoke(name, cross(input)))
        } catch (e) {
          throw Object.assign(new Error((e as Error).message), { name: (e as Error).name })
        }
      },
    }
  }
  return out
}

const noInterrupt = () => {
  throw new Error('Called interrupt() outside the context of a graph.')
}

/** Copies a value the way postMessage would (class instances become plain objects). */
const cross = <T>(v: T): T => structuredClone(v)

async function runRouterCode(
  code: string,
  state: unknown,
  configurable?: Record<string, unknown>,
): Promise<unknown> {
  const config = configurable && { configurable: cross(configurable), writer() {} }
  return cross(await evaluate(code, noInterrupt)(cross(state), config))
}

export class CloneCodeHost implements CodeHost {
  async runNode(
    _owner: string,
    code: string,
    input: unknown,
    pad: ScratchpadData,
    calls?: NodeHostCalls,
    route?: RouteRequest,
  ): Promise<RemoteNodeResult> {
    const before = route && cross(input)
    const state = {
      resume: [...cross(pad.resume)],
      nullResume: cross(pad.nullResume),
      counter: pad.counter ?? -1,
    }
    let resume: unknown[] | null = null
    let paused: { value: unknown } | null = null
    // `config` as the sandbox gives it: the run's settings, and `custom` chunks sent back.
    const custom: unknown[] = []
    const config = calls?.configurable && {
      configurable: cross(calls.configurable),
      writer: (chunk: unknown) => void custom.push(cross(chunk)),
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
      const fn = evaluate(code, interrupt, subgraphsOf(calls))
      const output = await fn(cross(input), config)
      const routes =
        route &&
        (await this.runRoutes(
          route,
          before as Record<string, unknown>,
          output,
          calls?.configurable,
        ))
      return {
        kind: 'ok',
        output: cross(output),
        resume: cross(resume),
        logs: [],
        ...withCustom(),
        ...(routes && { routes }),
      }
    } catch (e) {
      if (e === PAUSE && paused) {
        return {
          kind: 'interrupt',
          value: cross((paused as { value: unknown }).value),
          resume: cross(resume),
          logs: [],
          ...withCustom(),
        }
      }
      throw e
    }
  }

  /** The node's routers run in its call, as the sandbox runs them (see fusedRoutes.ts). */
  private async runRoutes(
    route: RouteRequest,
    before: Record<string, unknown>,
    output: unknown,
    configurable?: Record<string, unknown>,
  ): Promise<(() => unknown)[] | undefined> {
    const reducers: Record<string, Reducer> = NAMED_REDUCERS
    const state = routerState(before, cross(output), route.fields, reducers, foldWrites)
    if (!state) return undefined
    const routes: (() => unknown)[] = []
    for (const code of route.routers) {
      try {
        const value = await runRouterCode(code, state, configurable)
        routes.push(() => value)
      } catch (e) {
        routes.push(() => {
          throw e
        })
        break
      }
    }
    return routes
  }

  async runRouter(
    _owner: string,
    code: string,
    state: unknown,
    configurable?: Record<string, unknown>,
  ): Promise<unknown> {
    return runRouterCode(code, state, configurable)
  }

  async foldReducer(
    field: string,
    code: string,
    current: unknown,
    values: unknown[],
  ): Promise<unknown> {
    const reducer = evaluate(code, noInterrupt) as (a: unknown, b: unknown) => unknown
    return cross(
      foldWrites(reducer, cross(current), cross(values), (message) => {
        const e = new Error(message)
        e.name = 'InvalidUpdateError'
        throw Object.assign(e, { field })
      }),
    )
  }

  async check(_owner: string, _kind: string, code: string): Promise<string | null> {
    return typeof evaluate(code, noInterrupt) === 'function'
      ? null
      : 'does not evaluate to a function'
  }
}
