import { runStatus, type RunStatusInput } from '../store/runStatus'

/** What the announcer remembers of the last state it saw. */
export interface AnnounceMemory {
  threadId: string
  /** The thread's newest checkpoint. */
  headId: string | undefined
  runState: RunStatusInput['runState']
  /** What was last said (or would have been): the same words are not said twice. */
  said: string | null
  /** The head that was announced as a fork: its status is not said over it. */
  forkedHead?: string | undefined
}

export interface AnnounceInput extends Omit<RunStatusInput, 'selectedCheckpointId'> {
  threadId: string
}

/**
 * What a screen reader hears when the run stops advancing or the thread forks, as a pure
 * function of the last state seen and the new one: "Paused at step 1, next: inc", "Paused
 * before write (breakpoint)", "Waiting for a reply to interrupt() in review", "Run finished
 * at step 3", "Forked from step 2, next: inc". While a run goes on it says nothing (one
 * announcement per super-step would drown everything else). `text` is null when there is
 * nothing new; the first state seen (`prev` null) is not announced.
 */
export function announce(
  prev: AnnounceMemory | null,
  s: AnnounceInput,
): { memory: AnnounceMemory; text: string | null } {
  const headId = s.timeline[0]?.checkpointId
  const base = { threadId: s.threadId, headId, runState: s.runState }
  const fork = prev ? forkSentence(prev, s) : null
  if (fork !== null) return { memory: { ...base, said: fork, forkedHead: headId }, text: fork }
  // The fork's own head, nothing run since: its status (the store reads it as paused there)
  // would only talk over the fork. A run that fails or stops before a checkpoint still says so.
  const quiet = s.runState !== 'failed' && s.runState !== 'stopped'
  if (prev && headId !== undefined && headId === prev.forkedHead && quiet)
    return { memory: { ...prev, ...base }, text: null }
  const words = statusSentence(s)
  const memory = { ...base, said: words }
  if (!prev) return { memory, text: null }
  const news = words !== null && (words !== prev.said || headId !== prev.headId)
  return { memory, text: news ? words : null }
}

/** A new head written by an update in the same thread, not by a run: a fork. */
function forkSentence(prev: AnnounceMemory, s: AnnounceInput): string | null {
  const head = s.timeline[0]
  if (!head || s.runState === 'running' || prev.threadId !== s.threadId) return null
  if (head.checkpointId === prev.headId) return null
  if (head.source !== 'update' && head.source !== 'fork') return null
  const from = s.timeline.find((t) => t.checkpointId === head.parentId)
  const next = head.next.length ? `, next: ${head.next.join(', ')}` : ''
  return `Forked from step ${from?.step ?? head.step - 1}${next}`
}

function statusSentence(s: AnnounceInput): string | null {
  const head = s.timeline[0]
  if (s.runState === 'running') return null
  const status = runStatus({ ...s, selectedCheckpointId: null })
  const at = head ? ` at step ${head.step}` : ''
  switch (status.phase) {
    case 'idle':
    case 'starting':
    case 'running':
      return null
    case 'done':
      return `Run finished${at}`
    case 'failed':
      return `Run failed${at}`
    case 'stopped':
      return `Run stopped${at}`
    default:
      return status.text
        .replace(/\{(\d+)\}/g, (_, i: string) => status.names[Number(i)] ?? '')
        .replace(/ · /g, ', ')
  }
}
