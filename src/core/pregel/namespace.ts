/**
 * Checkpoint namespaces, as LangGraph writes them (`checkpoint_ns`): `''` is the root graph;
 * a subgraph run by a task of the root is `<node>:<taskId>`; nested,
 * `<node>:<taskId>|<node>:<taskId>`; a task's second subgraph call appends `|1`, its third
 * `|2`. Task ids here are a hash of the checkpoint and the task (unique in the thread), not
 * LangGraph's uuid5: reports drop them (see {@link nsNodes}).
 */
import { hash128 } from '../../lib/hash'

/** LangGraph's CHECKPOINT_NAMESPACE_SEPARATOR and CHECKPOINT_NAMESPACE_END. */
export const NS_SEPARATOR = '|'
export const NS_END = ':'

/** The namespace of a task (what a subgraph it runs is stored under), in graph `runNs`. */
export function taskNamespace(
  runNs: string,
  checkpointId: string,
  taskId: string,
  name: string,
): string {
  const own = `${name}${NS_END}${hash128(`${checkpointId}${NS_SEPARATOR}${taskId}`)}`
  return runNs === '' ? own : `${runNs}${NS_SEPARATOR}${own}`
}

/** The namespace of a task's `n`-th subgraph call (0: the task's own). */
export function callNamespace(taskNs: string, n: number): string {
  return n === 0 ? taskNs : `${taskNs}${NS_SEPARATOR}${n}`
}

/**
 * The node ids of a namespace from the root down, task ids and call counters dropped
 * (LangGraph's `recastCheckpointNamespace`): `team:…|researcher:…` → `["team", "researcher"]`.
 */
export function nsNodes(ns: string): string[] {
  if (ns === '') return []
  return ns
    .split(NS_SEPARATOR)
    .filter((part) => !/^\d+$/.test(part))
    .map((part) => part.split(NS_END)[0] as string)
}
