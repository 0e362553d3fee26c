import { END, START } from '../graph/constants'
import { Command, Send } from '../pregel/types'
import { interrupt } from '../pregel/interrupt'

/** What a piece of user code is, for error messages. */
export interface CodeRef {
  kind: 'node' | 'router' | 'reducer'
  /** Node id for node and router code, field name for reducers. */
  owner: string
}

/** Turns user code (an expression evaluating to a function) into that function. */
export type CodeEvaluator = (code: string, ref: CodeRef) => (...args: unknown[]) => unknown

const SCOPE_NAMES = ['Send', 'Command', 'interrupt', 'START', 'END'] as const
const SCOPE_VALUES = [Send, Command, interrupt, START, END] as const

/**
 * Evaluates code in this realm with LangGraph's names in scope. Only for trusted contexts
 * (the CLI, tests, the sandboxed worker itself): it runs whatever the code says.
 */
export const evaluateLocally: CodeEvaluator = (code, ref) => {
  const make = new Function(...SCOPE_NAMES, `"use strict";\nreturn (${code}\n)`) as (
    ...scope: unknown[]
  ) => unknown
  const fn = make(...SCOPE_VALUES)
  if (typeof fn !== 'function') {
    throw new TypeError(
      `The ${ref.kind} code of \`${ref.owner}\` evaluates to ${fn === null ? 'null' : typeof fn}, not a function.`,
    )
  }
  return fn as (...args: unknown[]) => unknown
}
