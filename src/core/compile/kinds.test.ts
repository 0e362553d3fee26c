import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../../lib/env'
import { parseGraph } from '../graph/validate'
import { runGraph, runSession } from '../run'
import {
  parseToolInput,
  TOOL_INPUT_MISMATCH,
  TOOL_NODE_INPUT_ERROR,
  toolsRunner,
  type ChatModelProvider,
} from './kinds'
import { compileGraph } from './compileGraph'
import { evaluateLocally } from './evaluate'
import { MemorySaver } from '../checkpoint/memorySaver'
import { GraphRuntime } from '../pregel/runtime'
import { Command, Send } from '../pregel/types'
import type { NodeSpec } from '../graph/schema'
import { CloneCodeHost } from '../../differential/cloneHost'

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

  describe('a Command from a tool, a Send with lg_tool_call, a field without add_messages', () => {
    // On `chat`, so that the field is the node's own and not LangGraph's `messages`.
    const chatAgent = (state: unknown[], router: string) =>
      specOf({
        state,
        nodes: [
          {
            id: 'agent',
            kind: 'model',
            messagesField: 'chat',
            model: {
              provider: 'scripted',
              replies: [
                {
                  tool_calls: [
                    { name: 'text', args: { n: 1 }, id: 'c1' },
                    { name: 'set', args: {}, id: 'c2' },
                    { name: 'text', args: { n: 3 }, id: 'c3' },
                  ],
                },
                { content: 'done' },
              ],
            },
          },
          {
            id: 'tools',
            kind: 'tools',
            messagesField: 'chat',
            tools: [
              { name: 'text', code: '(a) => `n=${a.n}`' },
              { name: 'set', code: "() => new Command({ update: { foo: 'baz', log: ['set'] } })" },
            ],
          },
        ],
        edges: [
          { from: '__start__', to: 'agent' },
          { from: 'tools', to: 'agent' },
        ],
        branches: [{ from: 'agent', router }],
      })
    const fields = [
      { name: 'chat', reducer: 'add_messages', default: [] },
      { name: 'foo' },
      { name: 'log', reducer: 'append', default: [] },
    ]
    const allCalls = "(s) => s.chat[s.chat.length - 1].tool_calls?.length ? 'tools' : END"
    const sendEach =
      "(s) => { const calls = s.chat[s.chat.length - 1].tool_calls ?? []; return calls.length ? calls.map((c) => new Send('tools', { ...s, lg_tool_call: c })) : END }"
    const chatOf = (v: Record<string, unknown>) =>
      (v.chat as { type: string; content: unknown; tool_call_id?: string }[]).map((m) =>
        m.type === 'tool'
          ? `${m.tool_call_id}:${String(m.content)}`
          : `${m.type}:${String(m.content)}`,
      )

    for (const host of [false, true]) {
      const where = host ? 'through a clone host' : 'locally'
      const run = (spec: ReturnType<typeof specOf>, input: Record<string, unknown>) =>
        runGraph(spec, {
          input,
          env: createCountingEnv(),
          ...(host ? { host: new CloneCodeHost() } : {}),
        })

      it(`a tool's Command is the node's output, the other calls' messages beside it (${where})`, async () => {
        const r = await run(chatAgent(fields, allCalls), { chat: ['go'], foo: 'bar' })
        expect(r.error).toBeNull()
        expect(r.values.foo).toBe('baz')
        expect(r.values.log).toEqual(['set'])
        // No tool message for c2: its Command did not add one.
        expect(chatOf(r.values)).toEqual(['human:go', 'ai:', 'c1:n=1', 'c3:n=3', 'ai:done'])
      })

      it(`a Send's lg_tool_call runs that call only (${where})`, async () => {
        const r = await run(chatAgent(fields, sendEach), { chat: ['go'], foo: 'bar' })
        expect(r.error).toBeNull()
        expect(r.values.foo).toBe('baz')
        // Three tasks, one call each: every call answered once.
        expect(chatOf(r.values)).toEqual(['human:go', 'ai:', 'c1:n=1', 'c3:n=3', 'ai:done'])
      })

      it(`a field without add_messages fails the node as ToolNode does, but for a Send (${where})`, async () => {
        const concat = [
          { name: 'chat', reducer: 'custom', code: '(a, b) => a.concat(b)', default: [] },
        ]
        const plain = [...concat, ...fields.slice(1)]
        const failed = await run(chatAgent(plain, allCalls), {
          chat: [{ type: 'human', content: 'go' }],
        })
        expect(failed.error).toMatchObject({
          name: 'Error',
          message: TOOL_NODE_INPUT_ERROR,
          node: 'tools',
        })
        const sent = await run(chatAgent(plain, sendEach), {
          chat: [{ type: 'human', content: 'go' }],
        })
        expect(sent.error).toBeNull()
        expect(chatOf(sent.values)).toEqual(['human:go', 'ai:', 'c1:n=1', 'c3:n=3', 'ai:done'])
      })
    }

    it('combines outputs as ToolNode does: Commands in call order, one parent Command of Sends, last', async () => {
      const node = {
        id: 'tools',
        kind: 'tools',
        tools: [
          { name: 'text', code: "() => 'a'" },
          { name: 'own', code: '() => new Command({ update: { foo: 1 } })' },
          {
            name: 'up',
            code: "(a) => new Command({ graph: Command.PARENT, goto: [new Send('x', a.n)] })",
          },
        ],
      } as NodeSpec
      const runner = toolsRunner(node, {
        evaluate: evaluateLocally,
        newId: () => 'id',
        nodes: [node],
        state: [{ name: 'messages', reducer: 'add_messages', default: [] }],
      })
      const ctx = {
        pad: {
          resume: [],
          nullResume: undefined,
          resumeMap: undefined,
          namespace: '',
          counter: -1,
        },
        write: () => {},
        log: () => {},
      }
      const calls = [
        { name: 'up', args: { n: 1 }, id: 'u1' },
        { name: 'text', args: {}, id: 't1' },
        { name: 'own', args: {}, id: 'o1' },
        { name: 'up', args: { n: 2 }, id: 'u2' },
      ]
      const out = (await runner(
        { messages: [{ type: 'ai', content: '', tool_calls: calls }] },
        ctx,
      )) as unknown[]
      expect(out).toHaveLength(3)
      expect(out[0]).toMatchObject({
        messages: [{ type: 'tool', content: 'a', tool_call_id: 't1' }],
      })
      expect(out[1]).toBeInstanceOf(Command)
      expect((out[1] as Command).update).toEqual({ foo: 1 })
      const parent = out[2] as Command
      expect(parent).toBeInstanceOf(Command)
      expect(parent.graph).toBe(Command.PARENT)
      expect(parent.goto).toEqual([new Send('x', 1), new Send('x', 2)])
      // No Command: ToolNode's plain `{ messages }`.
      const plain = await runner(
        { messages: [{ type: 'ai', content: '', tool_calls: [calls[1]] }] },
        ctx,
      )
      expect(plain).toEqual({
        messages: [
          { type: 'tool', content: 'a', name: 'text', status: 'success', tool_call_id: 't1' },
        ],
      })
    })
  })
})
