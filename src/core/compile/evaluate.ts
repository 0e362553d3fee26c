import { END, START } from '../graph/constants'
import { Command, Send } from '../pregel/types'
import { interrupt } from '../pregel/interrupt'

/** What a piece of user code is, for error messages. */
export interface CodeRef {
  kind: 'node' | 'router' | 'reducer'
  /** Node id for node and router code, field name for reducers. */
  owner: string
}

/** A compiled subgraph as node code sees it (`subgraphs.<name>.invoke(input)`). */
export interface SubgraphHandle {
  invoke(input: unknown): Promise<unknown>
}

/** Names in scope that a task binds for itself. */
export interface ScopeOverrides {
  interrupt?: (value: unknown) => unknown
  subgraphs?: Readonly<Record<string, SubgraphHandle>>
}

/**
 * Turns user code (an expression evaluating to a function) into that function, with
 * LangGraph's names in scope; `overrides` replace some of them (a task's own `interrupt`).
 */
export type CodeEvaluator = (
  code: string,
  ref: CodeRef,
  overrides?: ScopeOverrides,
) => (...args: unknown[]) => unknown

const SCOPE_NAMES = ['Send', 'Command', 'interrupt', 'START', 'END', 'subgraphs'] as const

/** `subgraphs` in code that runs outside a task (e.g. when code is checked): nothing to call. */
const NO_SUBGRAPHS: Readonly<Record<string, SubgraphHandle>> = Object.freeze({})

/**
 * Evaluates code in this realm with LangGraph's names in scope. Only for trusted contexts
 * (the CLI, tests, the sandboxed worker itself): it runs whatever the code says.
 */
export const evaluateLocally: CodeEvaluator = (code, ref, overrides) => {
  const make = new Function(...SCOPE_NAMES, `"use strict";\nreturn (${code}\n)`) as (
    ...scope: unknown[]
  ) => unknown
  const fn = make(
    Send,
    Command,
    overrides?.interrupt ?? interrupt,
    START,
    END,
    overrides?.subgraphs ?? NO_SUBGRAPHS,
  )
  if (typeof fn !== 'function') {
    throw new TypeError(
      `The ${ref.kind} code of \`${ref.owner}\` evaluates to ${fn === null ? 'null' : typeof fn}, not a function.`,
    )
  }
  return fn as (...args: unknown[]) => unknown
}
