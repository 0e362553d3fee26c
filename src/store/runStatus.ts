import { nsNodes } from '../core/pregel/namespace'
import type { InnerPause, InterruptInfo, PauseReason, TimelineEntry } from '../worker/protocol'

/** Why the thread's run stopped advancing, as the worker last reported it. */
export interface RunPause {
  reason: PauseReason
  /** The nodes of the next super-step. */
  next: string[]
  /** The step of the checkpoint it paused at, when known. */
  step?: number
  /** Paused between two super-steps of a subgraph (a step into it). */
  inner?: InnerPause
}

export type RunPhase =
  'idle' | 'starting' | 'running' | 'paused' | 'waiting' | 'done' | 'failed' | 'stopped'

/** What the status line says: a short word for the badge, a sentence, and names to show as code. */
export interface RunStatus {
  phase: RunPhase
  /** The sentence, with `{0}`, `{1}`… where the node names in `names` go. */
  text: string
  names: string[]
  /** More, for a tooltip: what the status means for the next action. */
  detail?: string
}

export interface RunStatusInput {
  runState: 'idle' | 'running' | 'paused' | 'interrupted' | 'done' | 'failed' | 'stopped'
  pausedBy: RunPause | null
  interrupts: readonly InterruptInfo[]
  timeline: readonly TimelineEntry[]
  selectedCheckpointId: string | null
  /** The document's static breakpoints, to say before or after. */
  interruptBefore?: readonly string[]
  /** Run was pressed and the run has not started yet (`runStarting`). */
  runStarting?: boolean
}

const list = (names: readonly string[], from = 0) => names.map((_, i) => `{${i + from}}`).join(', ')

/**
 * The run's status as a pure function of what the worker reported (the run's last outcome,
 * the thread's timeline) and what the user selected: "Paused before `write` (breakpoint)",
 * "Waiting for a reply to interrupt() in `review`", "Done", and, when an older checkpoint
 * is selected, which one is shown and that Run goes on from the latest.
 */
export function runStatus(s: RunStatusInput): RunStatus {
  const base = threadStatus(s)
  const latest = s.timeline[0]
  const selected = s.selectedCheckpointId
    ? s.timeline.find((t) => t.checkpointId === s.selectedCheckpointId)
    : undefined
  if (!selected || !latest || selected.checkpointId === latest.checkpointId) return base
  return {
    ...base,
    text: `${base.text} · showing step ${selected.step} (older)`,
    detail: `Step ${selected.step} is an older checkpoint: Run and Step go on from the latest; fork from it (State tab) to change history.`,
  }
}

const DONE: RunStatus = {
  phase: 'done',
  text: 'Done',
  names: [],
  detail: 'Nothing is next: Run starts again from the input.',
}

function threadStatus(s: RunStatusInput): RunStatus {
  const next = s.pausedBy?.next ?? s.timeline[0]?.next ?? []
  const nextText = (from: number) => (next.length ? ` · next: ${list(next, from)}` : '')
  const goOn = 'Continue (F5) runs on; Step (F10) runs one super-step.'
  if (s.runStarting && s.runState !== 'running')
    return {
      phase: 'starting',
      text: 'Starting…',
      names: [],
      detail: 'The run starts once the graph has compiled (the runtime may still be loading).',
    }
  switch (s.runState) {
    case 'running':
      return { phase: 'running', text: 'Running…', names: [] }
    case 'done':
      return DONE
    case 'failed':
      return { phase: 'failed', text: 'Failed', names: [], detail: 'The error is shown below.' }
    case 'stopped':
      return { phase: 'stopped', text: 'Stopped', names: [] }
    case 'idle': {
      const latest = s.timeline[0]
      if (!latest)
        return {
          phase: 'idle',
          text: 'Ready',
          names: [],
          detail: 'Run (F5) or Step (F10) starts a run.',
        }
      if (!latest.next.length) return DONE
      return {
        phase: 'paused',
        text: `Paused at step ${latest.step}${nextText(0)}`,
        names: next,
        detail: goOn,
      }
    }
    case 'paused':
    case 'interrupted': {
      if (s.pausedBy?.reason === 'interrupt' || (!s.pausedBy && s.interrupts.length > 0)) {
        const askers = [...new Set(s.interrupts.map((i) => i.path?.at(-1) ?? i.node))]
        return {
          phase: 'waiting',
          text: askers.length
            ? `Waiting for a reply to interrupt() in ${list(askers)}`
            : 'Waiting for a reply to interrupt()',
          names: askers,
          detail: 'Reply in the Interrupt tab: the reply is what interrupt() returns.',
        }
      }
      const inner = s.pausedBy?.inner
      if (inner) {
        const where = nsNodes(inner.ns).join(' › ')
        return {
          phase: 'paused',
          text: `Inside {0} at its step ${inner.step}${inner.next.length ? ` · next: ${list(inner.next, 1)}` : ' · its end'}`,
          names: [where, ...inner.next],
          detail:
            'Step (F10) runs its next super-step; Step into (F11) goes into a subgraph it runs; Step out (Shift+F11) runs the rest of it; Continue (F5) runs on.',
        }
      }
      const step = s.pausedBy?.step ?? s.timeline[0]?.step
      const at = step === undefined ? '' : ` at step ${step}`
      if (s.pausedBy?.reason === 'breakpoint') {
        const before = next.filter((n) => s.interruptBefore?.includes(n))
        return before.length
          ? {
              phase: 'paused',
              text: `Paused before ${list(before)} (breakpoint)`,
              names: before,
              detail: goOn,
            }
          : {
              phase: 'paused',
              text: `Paused${at} (breakpoint)${nextText(0)}`,
              names: next,
              detail: goOn,
            }
      }
      return {
        phase: 'paused',
        text: `Paused${at}${nextText(0)}`,
        names: next,
        detail: s.pausedBy?.reason === 'pause' ? `You pressed Pause. ${goOn}` : goOn,
      }
    }
  }
}
