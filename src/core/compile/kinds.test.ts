import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../../lib/env'
import { parseGraph } from '../graph/validate'
import { runGraph, runSession } from '../run'
import { parseToolInput, TOOL_INPUT_MISMATCH, type ChatModelProvider } from './kinds'
import { compileGraph } from './compileGraph'
import { evaluateLocally } from './evaluate'
import { MemorySaver } from '../checkpoint/memorySaver'
import { GraphRuntime } from '../pregel/runtime'

function specOf(doc: Record<string, unknown>) {
  const parsed = parseGraph({ superstep: 1, name: 'k', ...doc })
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  return parsed.spec
}

const chatbot = specOf({
  state: [{ name: 'messages', reducer: 'add_messages', default: [] }],
  nodes: [
    {
      id: 'bot',
      kind: 'model',
      model: { provider: 'scripted', replies: [{ content: 'one' }, { content: 'two' }] },
    },
  ],
  edges: [
    { from: '__start__', to: 'bot' },
    { from: 'bot', to: '__end__' },
  ],
})

const contents = (v: Record<string, unknown>) =>
  (v.messages as { content: unknown }[]).map((m) => m.content)

describe('model nodes', () => {
  it('a scripted model replies by the number of AI messages, so a fork replays the same reply', async () => {
    const r = await runSession(
      chatbot,
      [
        { op: 'invoke', input: { messages: ['a'] } },
        { op: 'invoke', input: { messages: ['b'] } },
        // replay the first run's input checkpoint: the fork plays reply 1 again
        { op: 'invoke', input: null, checkpoint: 1 },
        { op: 'invoke', input: { messages: ['c'] } },
      ],
      { env: createCountingEnv() },
    )
    expect(r.error).toBeNull()
    expect(contents(r.values)).toEqual(['a', 'one', 'c', 'two'])
    const firstRun = r.checkpoints[2]?.values ?? {}
    expect(contents(firstRun)).toEqual(['a', 'one'])
  })

  it('plays the script again after its last reply', async () => {
    const r = await runSession(
      chatbot,
      [1, 2, 3].map((n) => ({ op: 'invoke' as const, input: { messages: [`m${n}`] } })),
      { env: createCountingEnv() },
    )
    expect(contents(r.values)).toEqual(['m1', 'one', 'm2', 'two', 'm3', 'one'])
  })

  const openai = specOf({
    state: [{ name: 'messages', reducer: 'add_messages', default: [] }],
    nodes: [
      {
        id: 'bot',
        kind: 'model',
        model: { provider: 'openai', baseUrl: 'http://localhost:1/v1', model: 'gpt-x' },
        bindTools: 'tools',
      },
      {
        id: 'tools',
        kind: 'tools',
        tools: [{ name: 'echo', description: 'Echo.', code: '(a) => a' }],
      },
    ],
    edges: [
      { from: '__start__', to: 'bot' },
      { from: 'tools', to: 'bot' },
    ],
    branches: [{ from: 'bot', router: 'tools_condition' }],
  })

  it('an openai model without a provider fails the node with ModelProviderUnavailableError', async () => {
    const r = await runGraph(openai, { input: { messages: ['hi'] }, env: createCountingEnv() })
    expect(r.error).toMatchObject({
      name: 'ModelProviderUnavailableError',
      code: 'MODEL_PROVIDER_UNAVAILABLE',
      node: 'bot',
    })
    expect(r.checkpoints.map((c) => c.source)).toEqual(['input', 'loop'])
  })

  it('an injected provider gets the messages and the bound tools; missing ids come from newId', async () => {
    const env = createCountingEnv()
    const requests: unknown[] = []
    const models: ChatModelProvider = {
      call: async (req) => {
        requests.push(structuredClone(req))
        return { type: 'ai', content: `seen ${req.messages.length}` }
      },
    }
    const graph = compileGraph(openai, { evaluate: evaluateLocally, newId: env.newId, models })
    const runtime = new GraphRuntime({ graph, saver: new MemorySaver(), env })
    await runtime.invoke(
      { messages: [{ role: 'user', content: 'hi', id: 'h' }] },
      { threadId: 't' },
    )
    const state = await runtime.getState({ threadId: 't' })
    expect(state?.values.messages).toEqual([
      { type: 'human', content: 'hi', id: 'h' },
      { type: 'ai', content: 'seen 1', id: expect.stringMatching(/^0{8}-/) as unknown },
    ])
    expect(requests).toEqual([
      {
        node: 'bot',
        settings: { provider: 'openai', baseUrl: 'http://localhost:1/v1', model: 'gpt-x' },
        messages: [{ type: 'human', content: 'hi', id: 'h' }],
        tools: [
          {
            name: 'echo',
            description: 'Echo.',
            parameters: { type: 'object', properties: {} },
          },
        ],
      },
    ])
  })
})

describe('tools nodes', () => {
  const agent = (tools: unknown[], calls: unknown[]) =>
    specOf({
      state: [{ name: 'messages', reducer: 'add_messages', default: [] }],
      nodes: [
        {
          id: 'agent',
          kind: 'model',
          model: {
            provider: 'scripted',
            replies: [{ tool_calls: calls }, { content: 'done' }],
          },
        },
        { id: 'tools', kind: 'tools', tools },
      ],
      edges: [
        { from: '__start__', to: 'agent' },
        { from: 'tools', to: 'agent' },
      ],
      branches: [{ from: 'agent', router: 'tools_condition' }],
    })
  const toolMessages = (v: Record<string, unknown>) =>
    (v.messages as { type: string; status?: string; content: unknown }[])
      .filter((m) => m.type === 'tool')
      .map((m) => [m.status, m.content])

  it("arguments that fail the schema are ToolNode's error message, and the tool never runs", async () => {
    const ran: unknown[] = []
    const spec = agent(
      [
        {
          name: 'add',
          parameters: {
            type: 'object',
            properties: { a: { type: 'number' } },
            required: ['a'],
          },
          code: '(args) => { globalThis.__ran.push(args); return "ok" }',
        },
      ],
      [
        { name: 'add', args: {}, id: 'c1' },
        { name: 'add', args: { a: 1 }, id: 'c2' },
      ],
    )
    ;(globalThis as { __ran?: unknown[] }).__ran = ran
    const r = await runGraph(spec, { input: { messages: ['go'] }, env: createCountingEnv() })
    expect(toolMessages(r.values)).toEqual([
      [
        'error',
        'Error: Received tool input did not match expected schema\n Please fix your mistakes.',
      ],
      ['success', 'ok'],
    ])
    expect(ran).toEqual([{ a: 1 }])
    delete (globalThis as { __ran?: unknown[] }).__ran
  })

  it('parseToolInput unwraps tool-call-shaped arguments, as StructuredTool.call does', () => {
    const schema = { type: 'object', required: ['q'] }
    expect(parseToolInput({ type: 'tool_call', args: { q: 1 } }, schema)).toEqual({ q: 1 })
    expect(() => parseToolInput({ type: 'tool_call', args: {} }, schema)).toThrow(
      TOOL_INPUT_MISMATCH,
    )
  })

  it('interrupt() in a tool pauses the tools node; on resume the node runs again', async () => {
    const spec = agent(
      [
        {
          name: 'ask',
          code: "() => 'answer: ' + interrupt('sure?')",
        },
      ],
      [{ name: 'ask', args: {}, id: 'c1' }],
    )
    const r = await runSession(
      spec,
      [
        { op: 'invoke', input: { messages: ['go'] } },
        { op: 'resume', value: 'yes' },
      ],
      { env: createCountingEnv() },
    )
    expect(r.error).toBeNull()
    const paused = r.checkpoints.find((c) => c.next.includes('tools') && c.interrupts.length)
    expect(paused?.interrupts).toEqual(['sure?'])
    expect(toolMessages(r.values)).toEqual([['success', 'answer: yes']])
  })
})
