import { EMPTY, type Channel } from '../channels'
import { NULL_TASK_ID, type PendingWrite } from '../checkpoint/types'
import type { CompiledGraph } from '../compile/compileGraph'
import { PULL, sortByTaskPath, type Channels, type Task } from '../pregel/algo'
import { INTERRUPT } from '../pregel/interrupt'
import { isTaskOutput } from '../pregel/loop'
import type { ChannelFold, TaskRun } from './types'

/** Task outputs that record how a task ended, not what it wrote. */
const NOT_WRITES = new Set(['__no_writes__', '__scheduled__'])
const ERROR = '__error__'
const PULL_PREFIX = `~${PULL}, `

/**
 * The tasks that ran from a checkpoint: its pending writes grouped by task id, named after
 * the tasks the loop prepared there, in apply order (task path). Writes under NULL_TASK_ID
 * (a resume, a Command's update) and answers addressed to interrupt ids are not tasks.
 */
export function tasksThatRan(tasks: readonly Task[], pending: readonly PendingWrite[]): TaskRun[] {
  const byId = new Map(tasks.map((t) => [t.id, t]))
  const runs = new Map<string, TaskRun>()
  for (const [tid, ch, v] of pending) {
    if (tid === NULL_TASK_ID) continue
    let run = runs.get(tid)
    if (!run) {
      const made = newRun(tid, byId.get(tid))
      if (!made) continue
      runs.set(tid, (run = made))
    }
    if (ch === ERROR) run.error = v as TaskRun['error']
    else if (ch === INTERRUPT) run.interrupts.push(...(v as TaskRun['interrupts']))
    else if (isTaskOutput(ch) && !NOT_WRITES.has(ch)) run.writes.push({ channel: ch, value: v })
  }
  return sortByTaskPath([...runs.values()])
}

function newRun(id: string, task: Task | undefined): TaskRun | undefined {
  if (task) return { id, name: task.name, kind: task.kind, writes: [], interrupts: [] }
  // A PULL task the re-prepared step no longer lists: its id still names its node.
  if (id.startsWith(PULL_PREFIX)) {
    return { id, name: id.slice(PULL_PREFIX.length), kind: 'pull', writes: [], interrupts: [] }
  }
  return undefined
}

/**
 * The state fields where several writes of the step met, each with what the reducer started
 * from (`before`: the channels the tasks ran on), the writes in fold order, and the result.
 */
export function foldsOf(
  graph: CompiledGraph,
  ran: readonly TaskRun[],
  before: Channels,
  after: Channels,
): ChannelFold[] {
  const writes = new Map<string, ChannelFold['writes']>()
  for (const run of ran) {
    for (const w of run.writes) {
      if (!graph.fieldSet.has(w.channel)) continue
      let list = writes.get(w.channel)
      if (!list) writes.set(w.channel, (list = []))
      list.push({ task: run.name, value: w.value })
    }
  }
  const folds: ChannelFold[] = []
  for (const field of graph.fields) {
    const list = writes.get(field)
    if (!list || list.length < 2) continue
    const reducer = reducerName(graph, field)
    const was = valueOf(before[field])
    const is = valueOf(after[field])
    folds.push({
      channel: field,
      ...(reducer !== undefined ? { reducer } : {}),
      hadBefore: was !== EMPTY,
      ...(was !== EMPTY ? { before: was } : {}),
      writes: list,
      hasAfter: is !== EMPTY,
      ...(is !== EMPTY ? { after: is } : {}),
    })
  }
  return folds
}

const valueOf = (channel: Channel | undefined): unknown => (channel ? channel.get() : EMPTY)

/** The reducer (or special channel) the schema names for a field; `overwrite` when none. */
export function reducerName(graph: CompiledGraph, field: string): string | undefined {
  const spec = graph.spec.state.find((f) => f.name === field)
  if (!spec) return undefined
  return spec.channel ?? spec.reducer ?? 'overwrite'
}
