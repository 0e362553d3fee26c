import type { IssueBadge, StepData } from './flowTypes'
import type { NodeOverlay } from './overlay'

/** A node's kind as a screen reader says it. */
const KIND_WORD = {
  code: 'code',
  model: 'model',
  tools: 'tools',
  human: 'human',
  graph: 'subgraph',
} as const

/** "1 problem", "3 problems", or nothing. */
function problems(badge: IssueBadge | undefined): string[] {
  const n = (badge?.errors ?? 0) + (badge?.warnings ?? 0)
  return n ? [`${n} problem${n === 1 ? '' : 's'}`] : []
}

/**
 * A document node's accessible name: its id, its kind, its run state in the shown
 * checkpoint, its breakpoints and its problem count, e.g. "Node agent, model, error,
 * 1 problem" or "Node inc, code, done, queued, pauses before".
 */
export function stepNodeName(name: string, data: StepData, o: NodeOverlay): string {
  const parts = [`Node ${name}`, KIND_WORD[data.nodeKind]]
  if (data.hitl && data.nodeKind !== 'human') parts.push('calls interrupt')
  if (o.failed !== undefined) parts.push('error')
  else if (o.ran) parts.push('done')
  if (o.next) parts.push('queued')
  if (o.badge !== undefined && !o.ran) parts.push(`last ran at step ${o.badge}`)
  if (data.pauseBefore) parts.push('pauses before')
  if (data.pauseAfter) parts.push('pauses after')
  return [...parts, ...problems(data.issues)].join(', ')
}

/** START or END with its run state and problems: "START, done", "END, 1 problem". */
export function terminalNodeName(label: string, badge: IssueBadge | undefined, o: NodeOverlay) {
  const parts = [label]
  if (o.ran) parts.push('done')
  if (o.next) parts.push('queued')
  return [...parts, ...problems(badge)].join(', ')
}
