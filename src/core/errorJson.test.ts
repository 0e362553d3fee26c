import { describe, expect, it } from 'vitest'
import { InvalidUpdateError } from './channels/base'
import { errorCode, errorToJson, errorToPosted } from './errorJson'
import { GraphRecursionError, GraphValueError, NodeRunError } from './pregel/errors'

/** What the sandbox rejects with: a plain object from another realm, with a position. */
const fromSandbox = { name: 'TypeError', message: 'x is not a function', line: 3, column: 7 }

describe('errorToJson (the report form)', () => {
  it('reports a node failure with the node and where in its code', () => {
    expect(errorToJson(new NodeRunError(fromSandbox, 'agent'))).toEqual({
      name: 'TypeError',
      message: 'x is not a function',
      code: null,
      line: 3,
      column: 7,
      node: 'agent',
    })
  })

  it("keeps LangGraph's code and says null when there is none", () => {
    const e = new InvalidUpdateError(
      'Node "nope" does not exist',
      'INVALID_GRAPH_NODE_RETURN_VALUE',
    )
    expect(errorToJson(e)).toMatchObject({ name: 'InvalidUpdateError', code: e.lc_error_code })
    expect(errorToJson(new RangeError('r'))).toEqual({
      name: 'RangeError',
      message: 'r',
      code: null,
    })
  })

  it('describes anything thrown, not only Errors', () => {
    expect(errorToJson('plain string')).toEqual({
      name: 'Error',
      message: 'plain string',
      code: null,
    })
    expect(errorToJson(undefined)).toEqual({ name: 'Error', message: 'undefined', code: null })
    expect(errorToJson({ message: 'm' })).toEqual({ name: 'Error', message: 'm', code: null })
  })
})

describe('errorToPosted (the form that crosses postMessage)', () => {
  it("falls back to the error's own code, and leaves out what is not known", () => {
    const refused = Object.assign(new Error('Send `init` first.'), {
      name: 'WorkerRequestError',
      code: 'NOT_INITIALIZED',
    })
    expect(errorToPosted(refused)).toEqual({
      name: 'WorkerRequestError',
      message: 'Send `init` first.',
      code: 'NOT_INITIALIZED',
    })
    expect(errorToPosted(new Error('e'))).toEqual({ name: 'Error', message: 'e' })
  })

  it("prefers LangGraph's code and keeps the node and position", () => {
    const e = Object.assign(new GraphRecursionError(3), { code: 'OWN' })
    expect(errorToPosted(new NodeRunError(e, 'loop'))).toMatchObject({
      code: 'GRAPH_RECURSION_LIMIT',
      node: 'loop',
    })
    expect(errorToPosted(fromSandbox)).toMatchObject({ line: 3, column: 7 })
  })
})

describe("LangGraph's errors", () => {
  it('share one machinery: a code, and the troubleshooting line LangGraph.js appends', () => {
    for (const e of [
      new GraphValueError('No checkpointer set', 'MISSING_CHECKPOINTER'),
      new InvalidUpdateError('Too many', 'INVALID_CONCURRENT_GRAPH_UPDATE'),
    ]) {
      expect(errorCode(e)).toBe(e.lc_error_code)
      expect(e.message).toContain(`/langgraph/${e.lc_error_code}/`)
    }
    const plain = new GraphValueError('no code')
    expect([plain.name, plain.message, errorCode(plain)]).toEqual([
      'GraphValueError',
      'no code',
      null,
    ])
  })
})
