/**
 * The oracle's agent building blocks, made of LangGraph.js's and LangChain's own pieces: a
 * scripted model is a minimal `BaseChatModel` (LangChain 1.4's fake chat models cannot play
 * a list of replies that carry tool calls), a tools node is `ToolNode` over `tool()`s, a
 * human node calls `interrupt`, `tools_condition` is the prebuilt `toolsCondition`.
 */
import { randomUUID } from 'node:crypto'
import { interrupt } from '@langchain/langgraph'
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt'
import { BaseChatModel } from '@langchain/core/language_models/chat_models'
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager'
import { AIMessage, AIMessageChunk, type BaseMessage } from '@langchain/core/messages'
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs'
import { tool } from '@langchain/core/tools'

/** A scripted reply of a model node, as in the document. */
export interface ScriptedReplyJson {
  content?: string
  tool_calls?: { name: string; args?: Record<string, unknown>; id?: string }[]
  id?: string
}

/** The kind-specific keys of a node of a graph document. */
export interface NodeKindJson {
  kind?: 'code' | 'model' | 'tools' | 'human' | 'graph'
  /** Graph nodes: the subgraph's name. */
  graph?: string
  model?: { provider: string; replies?: ScriptedReplyJson[] }
  messagesField?: string
  bindTools?: string
  tools?: {
    name: string
    description?: string
    parameters?: Record<string, unknown>
    code: string
  }[]
  show?: string
  writeTo?: string
}

/**
 * Plays its replies in order, one per call, and starts over after the last, counting calls
 * in the instance as LangChain's FakeListChatModel does. Ids left out are LangChain's: the
 * message's `run-<run id>`, a tool call's a fresh `call_<uuid>`. When a callback handler
 * prefers streaming (LangGraph's messages mode), the reply streams in Superstep's scripted
 * split (docs/runtime.md): its content in word-like pieces (`/\s*\S+|\s+/g`), then one chunk
 * per tool call with the call's whole arguments as JSON; an empty reply as one empty chunk.
 */
export class ScriptedChatModel extends BaseChatModel {
  private i = 0
  constructor(private readonly replies: ScriptedReplyJson[]) {
    super({})
  }
  _llmType(): string {
    return 'scripted'
  }
  private next(): ScriptedReplyJson {
    const reply = this.replies[this.i] ?? {}
    this.i = this.i < this.replies.length - 1 ? this.i + 1 : 0
    return reply
  }
  async _generate(): Promise<ChatResult> {
    const reply = this.next()
    const message = new AIMessage({
      content: reply.content ?? '',
      tool_calls: (reply.tool_calls ?? []).map((c) => ({
        name: c.name,
        args: structuredClone(c.args ?? {}),
        id: c.id ?? `call_${randomUUID()}`,
        type: 'tool_call' as const,
      })),
      ...(reply.id !== undefined ? { id: reply.id } : {}),
    })
    return { generations: [{ text: reply.content ?? '', message }] }
  }
  override async *_streamResponseChunks(
    _messages: BaseMessage[],
    _options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const reply = this.next()
    const id = reply.id !== undefined ? { id: reply.id } : {}
    const chunks: AIMessageChunk[] = ((reply.content ?? '').match(/\s*\S+|\s+/g) ?? []).map(
      (piece) => new AIMessageChunk({ content: piece, ...id }),
    )
    ;(reply.tool_calls ?? []).forEach((c, index) =>
      chunks.push(
        new AIMessageChunk({
          content: '',
          ...id,
          tool_call_chunks: [
            {
              index,
              id: c.id ?? `call_${randomUUID()}`,
              name: c.name,
              args: JSON.stringify(c.args ?? {}),
              type: 'tool_call_chunk',
            },
          ],
        }),
      ),
    )
    if (chunks.length === 0) chunks.push(new AIMessageChunk({ content: '', ...id }))
    for (const message of chunks) {
      const text = typeof message.content === 'string' ? message.content : ''
      const chunk = new ChatGenerationChunk({ message, text })
      yield chunk
      await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, {
        chunk,
      })
    }
  }
}

type Evaluate = (code: string, what: string) => (...args: unknown[]) => unknown

/** The function (or runnable) `addNode` gets for a node that is not a code node. */
export function kindNode(id: string, node: NodeKindJson, evaluate: Evaluate): unknown {
  const field = node.messagesField ?? 'messages'
  switch (node.kind) {
    case 'model': {
      if (node.model?.provider !== 'scripted')
        throw new Error(`node "${id}": only scripted models run in the oracle`)
      const model = new ScriptedChatModel(node.model.replies ?? [])
      return async (state: Record<string, unknown>) => ({
        [field]: [await model.invoke(state[field] as BaseMessage[])],
      })
    }
    case 'tools': {
      const tools = (node.tools ?? []).map((t) => {
        const fn = evaluate(t.code, `tool "${t.name}" of "${id}"`)
        return tool((args: unknown) => fn(args), {
          name: t.name,
          description: t.description ?? `${t.name} tool`,
          schema: t.parameters ?? { type: 'object', properties: {} },
        })
      })
      const toolNode = new ToolNode(tools)
      if (field === 'messages') return toolNode
      return async (state: Record<string, unknown>) => ({
        [field]: await toolNode.invoke(state[field]),
      })
    }
    case 'human': {
      const show = node.show ?? ''
      const writeTo = node.writeTo ?? ''
      return (state: Record<string, unknown>) => ({ [writeTo]: interrupt(state[show]) })
    }
    default:
      throw new Error(`node "${id}": not a building block`)
  }
}

/** The prebuilt router a branch names, or undefined for code. */
export function prebuiltRouterOf(router: string): unknown {
  return router.trim() === 'tools_condition' ? toolsCondition : undefined
}
