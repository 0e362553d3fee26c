import type { Channel } from '../channels'
import type { CompiledGraph, CompiledNode } from '../compile/compileGraph'
import { START } from '../graph/constants'
import { barrierState, channelContent, type Restored } from './restore'
import type { NodeSchedule, TriggerView } from './types'

/**
 * Why each node will or will not run in the next super-step, from `versions_seen` and the
 * channels (LangGraph's trigger rule: a trigger is available and newer than what the node
 * saw). `restored` is snapshotOf's view of the checkpoint, so `willRun` and `sends` add up
 * to the snapshot's `next`. `__start__` is listed only when it will run.
 */
export function scheduleOf(graph: CompiledGraph, restored: Restored): NodeSchedule[] {
  const out: NodeSchedule[] = []
  for (const node of graph.nodes.values()) {
    const mine = restored.tasks.filter((t) => t.name === node.name)
    const pull = mine.find((t) => t.kind === 'pull')
    if (node.name === START && mine.length === 0) continue
    const triggers = node.triggers.map((ch) => triggerView(restored, node.name, ch))
    const sends = mine.filter((t) => t.kind === 'push').length
    const fired = pull && triggers.find((t) => t.channel === pull.triggers[0])
    out.push({
      node: node.name,
      triggers,
      willRun: pull !== undefined,
      sends,
      reason: fired
        ? withSends(runsBecause(node.name, fired), sends)
        : sends > 0
          ? `will run: ${sendCount(sends)} to ${node.name} ${sends === 1 ? 'is' : 'are'} queued`
          : waitsBecause(restored, node, triggers),
    })
  }
  return out
}

function triggerView({ checkpoint, channels }: Restored, node: string, ch: string): TriggerView {
  const current = checkpoint.channel_versions[ch]
  const seen = checkpoint.versions_seen[node]?.[ch]
  return {
    channel: ch,
    ...(current !== undefined ? { current } : {}),
    ...(seen !== undefined ? { seen } : {}),
    newer: (current ?? 0) > (seen ?? 0),
    available: (channels[ch] as Channel).isAvailable(),
  }
}

const sendCount = (n: number) => `${n} Send${n === 1 ? '' : 's'}`

function withSends(reason: string, sends: number): string {
  if (sends === 0) return reason
  return `${reason}; and ${sendCount(sends)} ${sends === 1 ? 'is' : 'are'} queued`
}

function runsBecause(node: string, t: TriggerView): string {
  const seen = t.seen === undefined ? 'has never seen it' : `has seen ${t.seen}`
  return `will run: \`${t.channel}\` is at ${t.current}, ${node} ${seen}`
}

/** The first reason that applies: a barrier still waiting, defer, nothing written, nothing new. */
function waitsBecause(
  { channels }: Restored,
  node: CompiledNode,
  triggers: readonly TriggerView[],
): string {
  const pending = triggers.filter((t) => t.newer && !t.available)
  for (const t of pending) {
    const barrier = barrierState(channels[t.channel] as Channel)
    const missing = barrier?.names.filter((n) => !barrier.seen.includes(n)) ?? []
    if (missing.length > 0)
      return `will not run: \`${t.channel}\` is waiting for ${missing.join(', ')}`
  }
  const deferred = pending.find((t) => {
    const channel = channels[t.channel] as Channel
    return channel.kind.endsWith('AfterFinish') && channelContent(channel).hasValue
  })
  if (deferred) {
    return `will not run: \`${deferred.channel}\` is waiting for the rest of the graph to finish (defer)`
  }
  const written = pending[0] ?? triggers.find((t) => t.current !== undefined)
  const unversioned = triggers.find((t) => t.current === undefined && t.available)
  if (!written && unversioned) {
    // Only a NULL_TASK_ID write (a Command's goto) fills a channel without a version.
    return `will not run: \`${unversioned.channel}\` holds a Command's write that has no version yet`
  }
  if (!written) {
    return `will not run: nothing has written ${triggers.map((t) => `\`${t.channel}\``).join(' or ')} yet`
  }
  const seen = written.seen === undefined ? 'has never seen it' : `has seen ${written.seen}`
  const empty = written.newer ? ', but it is empty' : ''
  return `will not run: \`${written.channel}\` is at ${written.current} and ${node.name} ${seen}${empty}`
}
