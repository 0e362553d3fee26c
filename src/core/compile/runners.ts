import type { Reducer } from '../reducers'
import { GraphInterrupt, ParentCommand } from '../pregel/errors'
import {
  createInterrupt,
  interruptId,
  interruptWithoutTask,
  RESUME,
  takeMappedAnswer,
} from '../pregel/interrupt'
import { reviveControl } from '../pregel/types'
import type { CodeEvaluator, SubgraphHandle } from './evaluate'
import type {
  NodeCallContext,
  NodeRunner,
  RemoteFold,
  RouterRunner,
  SubgraphResolver,
} from './compiledTypes'
import type { RouteFusion, RouteRequest } from './fusedRoutes'
import type { CodeHost, NodeHostCalls } from './host'

/** Whether code may call a subgraph (and so needs its task to run it). */
export const callsSubgraphs = (code: string): boolean => /\bsubgraphs\b/.test(code)

/**
 * `subgraphs` for one task: each name in scope, whose `invoke(input)` runs that subgraph
 * inside the task, as a compiled LangGraph subgraph called from a node does.
 */
export function subgraphsFor(
  names: readonly string[],
  resolve: SubgraphResolver,
  ctx: NodeCallContext,
): Record<string, SubgraphHandle> {
  const out: Record<string, SubgraphHandle> = {}
  for (const name of names) {
    out[name] = {
      invoke: async (input: unknown) => {
        const graph = resolve(name)
        if (!graph) throw new Error(`There is no subgraph \`${name}\`.`)
        if (!ctx.subgraph)
          throw new Error(`Subgraph \`${name}\` can only run inside a graph's task.`)
        return ctx.subgraph(graph, input)
      },
    }
  }
  return Object.freeze(out)
}

/** Whether code may call `interrupt` (and so needs its task's scratchpad). */
const callsInterrupt = (code: string): boolean => /\binterrupt\b/.test(code)

/**
 * Code that calls `interrupt` is evaluated once per task with the task's own `interrupt`
 * bound (a browser has no AsyncLocalStorage to find the running task after an `await`);
 * other code is evaluated once.
 */
export function localNodeRunner(
  code: string,
  owner: string,
  evaluate: CodeEvaluator,
  subgraphs?: { names: readonly string[]; resolve: SubgraphResolver },
): NodeRunner {
  const ref = { kind: 'node', owner } as const
  const fn = evaluate(code, ref)
  const usesSubgraphs = subgraphs !== undefined && callsSubgraphs(code)
  if (!callsInterrupt(code) && !usesSubgraphs) return (input, ctx) => fn(input, ctx.config)
  return (input, ctx) =>
    evaluate(code, ref, {
      interrupt: createInterrupt(ctx.pad, ctx.write),
      ...(usesSubgraphs && { subgraphs: subgraphsFor(subgraphs.names, subgraphs.resolve, ctx) }),
    })(input, ctx.config)
}

/** A router evaluated here; like a node's code, once per task when it calls `interrupt`. */
export function localRouterRunner(
  code: string,
  owner: string,
  evaluate: CodeEvaluator,
): RouterRunner {
  const ref = { kind: 'router', owner } as const
  const fn = evaluate(code, ref)
  if (!callsInterrupt(code)) return (state, call) => fn(state, call?.config)
  return (state, call) =>
    evaluate(code, ref, {
      interrupt: call ? createInterrupt(call.pad, call.write) : interruptWithoutTask,
    })(state, call?.config)
}

const noSubgraphs = (name: string): Promise<never> =>
  Promise.reject(new Error(`There is no subgraph \`${name}\`.`))

/**
 * A node whose code runs in a sandbox host; the task's answers travel with the call. With
 * `subgraphs`, code that names them gets `subgraphs.<name>.invoke`: the host asks the task
 * to run the subgraph, as a compiled subgraph called from a LangGraph node runs. With
 * `fusion`, a task an edge triggered asks the host to run the node's routers in the same
 * call; their answers wait in `fusion` for the routers (see fusedRoutes.ts).
 */
export function remoteNodeRunner(
  code: string,
  owner: string,
  host: CodeHost,
  subgraphs?: { names: readonly string[]; resolve: SubgraphResolver },
  fusion?: RouteFusion,
): NodeRunner {
  const usesSubgraphs = subgraphs !== undefined && callsSubgraphs(code)
  return async (input, ctx) => {
    if (!usesSubgraphs) {
      const calls = ctx.config && {
        subgraphs: [],
        invoke: noSubgraphs,
        configurable: ctx.config.configurable,
      }
      const route = ctx.pull ? fusion?.request() : null
      if (!route) return reviveControl(await runRemoteCode(host, owner, code, input, ctx, calls))
      let routes: (() => unknown)[] | undefined
      const output = await runRemoteCode(host, owner, code, input, ctx, calls, route, (r) => {
        routes = r
      })
      ;(fusion as RouteFusion).keep(ctx, routes)
      return reviveControl(output)
    }
    // An interrupt or a handoff inside a subgraph reaches the code as an error; unless the
    // code caught it, it ends the node as it ended the subgraph (the original, not a copy).
    let control: unknown
    const handles = subgraphsFor(subgraphs.names, subgraphs.resolve, ctx)
    const calls: NodeHostCalls = {
      subgraphs: subgraphs.names,
      ...(ctx.config && { configurable: ctx.config.configurable }),
      invoke: async (name, value) => {
        try {
          return await (handles[name] as SubgraphHandle).invoke(value)
        } catch (e) {
          if (e instanceof GraphInterrupt || e instanceof ParentCommand) control ??= e
          throw e
        }
      },
    }
    try {
      return reviveControl(await runRemoteCode(host, owner, code, input, ctx, calls))
    } catch (e) {
      throw control ?? e
    }
  }
}

/**
 * Runs node-like code (a node's, a tool's) of `owner` in the host for one task: its logs
 * and `__resume__` answers are the task's, an `interrupt()` pauses the task. The output as
 * the host returned it. The scratchpad follows the call (answers taken, the interrupt
 * count), so a task's later calls go on from it, as in one realm.
 */
export async function runRemoteCode(
  host: CodeHost,
  owner: string,
  code: string,
  input: unknown,
  { pad, write, log, config }: NodeCallContext,
  calls?: NodeHostCalls,
  route?: RouteRequest,
  onRoutes?: (routes: (() => unknown)[] | undefined) => void,
): Promise<unknown> {
  takeMappedAnswer(pad)
  const r = await host.runNode(
    owner,
    code,
    input,
    {
      resume: pad.resume,
      ...(pad.nullResume ? { nullResume: pad.nullResume } : {}),
      ...(pad.counter >= 0 && { counter: pad.counter }),
    },
    calls,
    route,
  )
  if (r.kind === 'ok') onRoutes?.(r.routes)
  if (r.logs.length) log(r.logs)
  for (const chunk of r.custom ?? []) config?.writer(chunk)
  if (r.resume) {
    write(RESUME, r.resume)
    // An answer returned is the (length - 1)-th call's; a longer list took the thread's value.
    pad.counter = Math.max(pad.counter, r.resume.length - 1)
    if (r.resume.length > pad.resume.length) {
      pad.resume.push(...r.resume.slice(pad.resume.length))
      pad.nullResume = undefined
    }
  }
  if (r.kind === 'interrupt') {
    const answered = (r.resume ?? pad.resume).length
    pad.counter = Math.max(pad.counter, answered)
    throw new GraphInterrupt([{ id: interruptId(pad.namespace, answered), value: r.value }])
  }
  return r.output
}

/**
 * A router whose code runs in a sandbox host. One that calls `interrupt` runs as node-like
 * code of its node (`host.runNode`, as a tool's code does), so that the task's answers
 * travel with the call and an unanswered `interrupt()` pauses the task. One that `fusion`
 * runs with its node takes the answer the node's call brought back, when there is one.
 */
export function remoteRouter(
  code: string,
  owner: string,
  host: CodeHost,
  fusion?: RouteFusion,
): RouterRunner {
  if (!callsInterrupt(code)) {
    const index = fusion?.add(code) ?? -1
    const remote = async (state: unknown, call: NodeCallContext | undefined) =>
      reviveControl(await host.runRouter(owner, code, state, call?.config?.configurable))
    if (!fusion) return remote
    return (state, call) => {
      const answer = fusion.take(call, index)
      return answer ? reviveControl(answer()) : remote(state, call)
    }
  }
  return async (state, call) => {
    if (call) return reviveControl(await runRemoteCode(host, owner, code, state, call))
    const pad = {
      resume: [],
      nullResume: undefined,
      resumeMap: undefined,
      namespace: '',
      counter: -1,
    }
    try {
      const noop = () => {}
      return reviveControl(
        await runRemoteCode(host, owner, code, state, { pad, write: noop, log: noop }),
      )
    } catch (e) {
      if (e instanceof GraphInterrupt) interruptWithoutTask()
      throw e
    }
  }
}

export function remoteFold(code: string, field: string, host: CodeHost): RemoteFold {
  return (current, values) => host.foldReducer(field, code, current, values)
}

/** Stands in for a remote reducer inside its channel: writes are folded before they arrive. */
export function unreachableReducer(field: string): Reducer {
  return () => {
    throw new Error(`BUG: the sandboxed reducer of \`${field}\` was called without folding first.`)
  }
}
