import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../lib/env'
import { MemorySaver } from '../core/checkpoint/memorySaver'
import { compileGraph } from '../core/compile/compileGraph'
import { evaluateLocally } from '../core/compile/evaluate'
import type { GraphSpec } from '../core/graph/schema'
import { parseGraph } from '../core/graph/validate'
import { GraphRuntime } from '../core/pregel/runtime'
import { Command } from '../core/pregel/types'
import { CloneCodeHost } from './cloneHost'

/**
 * A resume map (`Command({ resume: { [interruptId]: answer } })`) answers the interrupt it
 * names, in this realm and through the sandbox boundary alike. (The sessions cannot say
 * this: an interrupt id is known only once the run has paused.)
 */
const ask = {
  superstep: 1,
  name: 'ask',
  state: [{ name: 'answer' }],
  nodes: [
    {
      id: 'ask',
      code: "async (s) => { await null; const a = interrupt('first?'); const b = interrupt('second?'); return { answer: a + b } }",
    },
  ],
  edges: [{ from: '__start__', to: 'ask' }],
}

function runtimeFor(host?: CloneCodeHost) {
  const parsed = parseGraph(ask)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  const env = createCountingEnv()
  const graph = compileGraph(parsed.spec as GraphSpec, {
    evaluate: evaluateLocally,
    newId: env.newId,
    ...(host && { host }),
  })
  return new GraphRuntime({ graph, saver: new MemorySaver(), env })
}

describe.each([
  ['in this realm', undefined],
  ['in a host', new CloneCodeHost()],
])('a resume map %s', (_where, host) => {
  it('answers the interrupt it names, and the next one pauses', async () => {
    const runtime = runtimeFor(host)
    const r1 = await runtime.invoke({}, { threadId: 't' })
    const first = r1.interrupts[0]?.id as string
    const r2 = await runtime.invoke(new Command({ resume: { [first]: 'A' } }), { threadId: 't' })
    expect(r2.interrupts.map((i) => i.value)).toEqual(['second?'])
    const second = r2.interrupts[0]?.id as string
    expect(second).not.toBe(first)
    const r3 = await runtime.invoke(new Command({ resume: { [second]: 'B' } }), { threadId: 't' })
    expect(r3.status).toBe('done')
    expect((await runtime.getState({ threadId: 't' }))?.values).toEqual({ answer: 'AB' })
  })
})
