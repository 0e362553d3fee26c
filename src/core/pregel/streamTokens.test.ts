import { describe, expect, it } from 'vitest'
import { createCountingEnv } from '../../lib/env'
import { MemorySaver } from '../checkpoint/memorySaver'
import { compileGraph } from '../compile/compileGraph'
import { evaluateLocally } from '../compile/evaluate'
import {
  scriptedDeltas,
  type AiMessageDelta,
  type ChatModelProvider,
  type ChatModelRequest,
} from '../compile/kinds'
import { parseGraph } from '../graph/validate'
import type { GraphSpec } from '../graph/schema'
import { createStreamingGraph, type StreamCallOptions } from '../stream'
import { GraphRuntime } from './runtime'
import { StreamProducer, type RawChunk, type StreamMode } from './stream'

function spec(doc: Record<string, unknown>): GraphSpec {
  const parsed = parseGraph({ superstep: 1, name: 'g', edges: [], ...doc })
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  return parsed.spec
}

const MESSAGES = [{ name: 'messages', reducer: 'add_messages', default: [] }]

const agent = spec({
  state: MESSAGES,
  nodes: [
    {
      id: 'model',
      kind: 'model',
      model: {
        provider: 'scripted',
        replies: [
          { content: 'On it.', tool_calls: [{ name: 'echo', args: { x: 1 }, id: 'call_1' }] },
          { content: 'Done  now.' },
        ],
      },
      bindTools: 'tools',
    },
    { id: 'tools', kind: 'tools', tools: [{ name: 'echo', code: '(a) => a' }] },
  ],
  edges: [
    { from: '__start__', to: 'model' },
    { from: 'tools', to: 'model' },
  ],
  branches: [{ from: 'model', router: 'tools_condition', paths: ['tools', '__end__'] }],
})

const input = { messages: [{ type: 'human', content: 'hi', id: 'h1' }] }

type Chunk = { type: string; content: unknown; id?: string; tool_call_chunks?: unknown[] }
type Meta = { langgraph_node: string }

/** The `[message, metadata]` pairs of single-mode messages chunks (`[ns, pair]` with subgraphs). */
const pairs = (chunks: unknown[]) => chunks as [Chunk, Meta][]
const typeAndContent = (chunks: unknown[]) => pairs(chunks).map(([m]) => [m.type, m.content])

async function streamOf(s: GraphSpec, call: StreamCallOptions) {
  const g = createStreamingGraph(s, { env: createCountingEnv() })
  const chunks: unknown[] = []
  for await (const c of g.stream(input, call)) chunks.push(c)
  const history = await g.runtime.getStateHistory({ threadId: call.threadId ?? 'cli' })
  return { chunks, history, values: history[0]?.values as { messages: Chunk[] } }
}

describe('the scripted split', () => {
  it('gives the text in word-like pieces, then one piece per tool call; they add up to the reply', () => {
    const deltas = scriptedDeltas({
      type: 'ai',
      content: ' Two  words\nand more ',
      tool_calls: [
        { name: 'a', args: { q: [1] }, id: 'c1' },
        { name: 'b', args: {}, id: 'c2' },
      ],
    })
    expect(deltas).toEqual([
      { content: ' Two' },
      { content: '  words' },
      { content: '\nand' },
      { content: ' more' },
      { content: ' ' },
      { content: '', tool_call_chunks: [{ index: 0, id: 'c1', name: 'a', args: '{"q":[1]}' }] },
      { content: '', tool_call_chunks: [{ index: 1, id: 'c2', name: 'b', args: '{}' }] },
    ])
    expect(deltas.map((d) => d.content).join('')).toBe(' Two  words\nand more ')
  })

  it('gives a reply with neither text nor tool calls as one empty piece', () => {
    expect(scriptedDeltas({ type: 'ai', content: '' })).toEqual([{ content: '' }])
  })
})

describe('messages mode with token streaming', () => {
  it('streams a model reply as chunks that carry the id the whole reply has in the state, and not the whole reply again', async () => {
    const { chunks, values } = await streamOf(agent, { streamMode: 'messages' })
    const [first, second, call, tool, ...last] = pairs(chunks)
    const [asked, done] = values.messages.filter((m) => m.type === 'ai')
    expect(typeAndContent(chunks)).toEqual([
      ['AIMessageChunk', 'On'],
      ['AIMessageChunk', ' it.'],
      ['AIMessageChunk', ''],
      ['tool', '{"x":1}'],
      ['AIMessageChunk', 'Done'],
      ['AIMessageChunk', '  now.'],
    ])
    expect([first, second, call].map((c) => c?.[0].id)).toEqual(Array(3).fill(asked?.id))
    expect(tool?.[1].langgraph_node).toBe('tools')
    expect(last.map(([m]) => m.id)).toEqual([done?.id, done?.id])
    expect(first?.[1]).toMatchObject({ langgraph_node: 'model', ls_model_type: 'chat' })
  })

  it('streams tool calls as tool_call_chunks in a chunk of their own', async () => {
    const { chunks } = await streamOf(agent, { streamMode: ['messages'] })
    const calls = chunks.filter(
      (c) => ((c as [string, [Chunk]])[1][0].tool_call_chunks?.length ?? 0) > 0,
    )
    expect(calls).toEqual([
      [
        'messages',
        [
          {
            type: 'AIMessageChunk',
            content: '',
            id: expect.any(String),
            tool_call_chunks: [{ index: 0, id: 'call_1', name: 'echo', args: '{"x":1}' }],
          },
          expect.objectContaining({ langgraph_node: 'model' }),
        ],
      ],
    ])
  })

  it('leaves the checkpoints as a run that does not stream messages leaves them', async () => {
    const streamed = await streamOf(agent, { streamMode: ['messages', 'values'] })
    const plain = await streamOf(agent, { streamMode: ['values'] })
    expect(streamed.history).toEqual(plain.history)
    expect(streamed.chunks.filter((c) => (c as [string])[0] === 'values')).toEqual(plain.chunks)
  })

  it('streams a subgraph model chunks in its namespace with subgraphs, none without', async () => {
    const parent = spec({
      state: MESSAGES,
      nodes: [{ id: 'inner', kind: 'graph', graph: 'agent' }],
      edges: [
        { from: '__start__', to: 'inner' },
        { from: 'inner', to: '__end__' },
      ],
      subgraphs: {
        agent: {
          state: MESSAGES,
          nodes: agent.nodes,
          edges: agent.edges,
          branches: agent.branches,
        },
      },
    })
    const withSub = await streamOf(parent, { streamMode: 'messages', subgraphs: true })
    const namespaces = (withSub.chunks as [string[], [Chunk]][]).map(([ns, [m]]) => [
      ns.map((p) => p.split(':')[0]),
      m.type,
    ])
    expect(namespaces).toEqual([
      ...Array(3).fill([['inner'], 'AIMessageChunk']),
      [['inner'], 'tool'],
      ...Array(2).fill([['inner'], 'AIMessageChunk']),
    ])
    const without = await streamOf(parent, { streamMode: 'messages' })
    expect(typeAndContent(without.chunks)).toEqual([
      ['ai', 'On it.'],
      ['tool', '{"x":1}'],
      ['ai', 'Done  now.'],
    ])
  })
})

describe('a provider model streams only when the run streams messages', () => {
  const model = spec({
    state: MESSAGES,
    nodes: [
      {
        id: 'model',
        kind: 'model',
        model: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' },
      },
    ],
    edges: [
      { from: '__start__', to: 'model' },
      { from: 'model', to: '__end__' },
    ],
  })

  /** A provider that answers "Hi there" in two deltas, with the endpoint's id or none. */
  function provider(id: string | undefined) {
    const requests: ChatModelRequest[] = []
    const models: ChatModelProvider = {
      call: async (request) => {
        requests.push(request)
        const deltas: AiMessageDelta[] = [{ content: 'Hi' }, { content: ' there' }]
        for (const d of deltas) request.onDelta?.(id === undefined ? d : { ...d, id })
        return { type: 'ai', content: 'Hi there', ...(id !== undefined && { id }) }
      },
    }
    return { models, requests }
  }

  async function run(modes: StreamMode[], id: string | undefined) {
    const env = createCountingEnv()
    const { models, requests } = provider(id)
    const graph = compileGraph(model, { evaluate: evaluateLocally, newId: env.newId, models })
    const chunks: [string[], StreamMode, [Chunk, unknown]][] = []
    const producer = new StreamProducer(
      graph,
      {
        modes,
        subgraphs: false,
        threadId: 't',
        recursionLimit: 25,
        configurable: {},
        now: env.now,
      },
      (c: RawChunk) => chunks.push(structuredClone(c) as (typeof chunks)[number]),
    )
    const runtime = new GraphRuntime({
      graph,
      saver: new MemorySaver(),
      env,
      onEvent: (e) => producer.onEvent(e),
      stream: (p) => producer.onPoint(p),
      preferStreaming: () => producer.prefersStreaming,
    })
    await runtime.invoke(input, { threadId: 't' })
    const state = await runtime.getState({ threadId: 't' })
    const reply = (state?.values as { messages: Chunk[] }).messages[1]
    return { chunks, requests, reply }
  }

  it('asks for the reply whole when messages mode is off', async () => {
    const { requests, chunks } = await run(['values', 'updates'], undefined)
    expect(requests[0]?.onDelta).toBeUndefined()
    expect(chunks.some(([, mode]) => mode === 'messages')).toBe(false)
  })

  it('streams the deltas under the endpoint id, which the stored reply keeps', async () => {
    const { chunks, reply } = await run(['messages'], 'chatcmpl-1')
    expect(reply?.id).toBe('chatcmpl-1')
    expect(chunks.map(([, , [m]]) => m)).toEqual([
      { type: 'AIMessageChunk', content: 'Hi', id: 'chatcmpl-1' },
      { type: 'AIMessageChunk', content: ' there', id: 'chatcmpl-1' },
    ])
    expect(chunks[0]?.[2]).toEqual([
      expect.anything(),
      expect.objectContaining({ ls_provider: 'openai', ls_model_name: 'm' }),
    ])
  })

  it('gives a reply streamed without an endpoint id one id, for its chunks and in the state', async () => {
    const { chunks, reply } = await run(['messages'], undefined)
    const ids = chunks.map(([, , [m]]) => m.id)
    expect(ids).toHaveLength(2)
    expect(new Set(ids)).toEqual(new Set([reply?.id]))
    expect(reply?.id).toEqual(expect.any(String))
  })
})
