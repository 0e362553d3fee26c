import { hash128 } from '../../lib/hash'
import { GraphInterrupt, GraphValueError } from './errors'

import { INTERRUPT, RESUME } from '../graph/constants'

export { INTERRUPT, RESUME }

/** One pending `interrupt(payload)`: what the user answers. */
export interface Interrupt {
  id: string
  value: unknown
}

/**
 * What one task execution knows about resuming (LangGraph's scratchpad): the answers the
 * task already consumed in earlier runs, a resume value given to the whole thread, and
 * answers addressed to interrupt ids.
 */
export interface TaskScratchpad {
  /** Answers to this task's earlier `interrupt()` calls, in call order. */
  resume: unknown[]
  /** A `Command({ resume })` value not yet consumed by this task. */
  nullResume: { value: unknown } | undefined
  /** `Command({ resume: { [interruptId]: value } })`. */
  resumeMap: Record<string, unknown> | undefined
  /** Identifies the task within its checkpoint, for interrupt ids. */
  namespace: string
  counter: number
}

/** The interrupt id of the `answered`-th interrupt of a task (stable across re-runs). */
export function interruptId(namespace: string, answered: number): string {
  return hash128(answered === 0 ? namespace : `${namespace}|${answered}`)
}

/**
 * `interrupt()` bound to one task execution: returns the answer when there is one (and
 * records it as a `__resume__` write), otherwise pauses the task by throwing GraphInterrupt.
 */
export function createInterrupt(
  pad: TaskScratchpad,
  write: (channel: string, value: unknown) => void,
): (value: unknown) => unknown {
  takeMappedAnswer(pad)
  return (value: unknown) => {
    const answer = nextAnswer(pad)
    if (answer.found) {
      write(RESUME, answer.resume)
      return answer.value
    }
    throw new GraphInterrupt([{ id: interruptId(pad.namespace, pad.resume.length), value }])
  }
}

/**
 * Adds the answer a resume map addresses to this task (to its next interrupt, else its
 * first) to the task's answers. Once per task: the map is taken off the scratchpad.
 */
export function takeMappedAnswer(pad: TaskScratchpad): void {
  const map = pad.resumeMap
  if (!map) return
  pad.resumeMap = undefined
  const next = interruptId(pad.namespace, pad.resume.length)
  const first = interruptId(pad.namespace, 0)
  if (next in map) pad.resume.push(map[next])
  else if (first in map) pad.resume.push(map[first])
}

/**
 * The answer to a task's next `interrupt()` call, if it has one: an answer from an earlier
 * run, else the thread's waiting resume value (consumed). `resume` is the task's answers list
 * afterwards (its `__resume__` write). Self-contained: the sandbox embeds its source.
 */
export function nextAnswer(pad: {
  resume: unknown[]
  nullResume?: { value: unknown } | undefined
  counter: number
}): { found: true; value: unknown; resume: unknown[] } | { found: false } {
  pad.counter += 1
  const idx = pad.counter
  if (idx < pad.resume.length) {
    return { found: true, value: pad.resume[idx], resume: pad.resume.slice(0, idx + 1) }
  }
  if (pad.nullResume) {
    if (pad.resume.length !== idx) {
      throw new Error(`Resume length mismatch: ${pad.resume.length} !== ${idx}`)
    }
    const value = pad.nullResume.value
    pad.nullResume = undefined
    pad.resume.push(value)
    return { found: true, value, resume: [...pad.resume] }
  }
  return { found: false }
}

/**
 * `interrupt()` in code that runs for a task-less update (a router run by updateState):
 * LangGraph.js runs those writers with no checkpointer in their config, so it fails so.
 */
export function interruptWithoutTask(): never {
  throw new GraphValueError('No checkpointer set', 'MISSING_CHECKPOINTER')
}

/** The `interrupt` in scope of code that runs outside a task (e.g. at compile time). */
export function interrupt(_value: unknown): never {
  throw new Error('Called interrupt() outside the context of a graph.')
}
