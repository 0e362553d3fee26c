/**
 * The agent node kinds in the TypeScript export: a tools node is LangGraph's `ToolNode` over
 * LangChain `tool()`s, a human node calls `interrupt`, an OpenAI model is `ChatOpenAI`, and a
 * scripted model is a node function that picks its reply from the state as Superstep does.
 */
import { messagesFieldOf, nodeKind } from '../core/graph/nodeKinds'
import type { NodeSpec } from '../core/graph/schema'
import { jsKey, jsLiteral } from './jsLiteral'
import { jsString } from './text'
import { imported, local, type Context } from './tsContext'

/** The helpers the scripted models share: the reply type and the player. */
export function scriptedHelpers(ctx: Context): string {
  if (!ctx.local.has('playScripted')) return ''
  const type = local(ctx, 'ScriptedReply')
  const ai = imported(ctx, 'AIMessage', '@langchain/core/messages')
  const coerce = imported(ctx, 'coerceMessageLikeToMessage', '@langchain/core/messages')
  return [
    '// A scripted chat model plays its replies as Superstep does: the reply is the number of',
    '// AI messages already in its messages field, modulo the replies, so a replay or a fork',
    "// of a checkpoint plays the same reply. Ids left out are LangChain's: add_messages gives",
    '// the message a uuid, a tool call gets `call_<uuid>`.',
    `interface ${type} {`,
    '  content?: string',
    '  tool_calls?: { name: string; args?: Record<string, unknown>; id?: string }[]',
    '  id?: string',
    '}',
    `function ${local(ctx, 'playScripted')}(replies: ${type}[], messages: unknown): ${ai} {`,
    '  const history = messages === undefined || messages === null ? [] : [messages].flat()',
    `  const like = (m: unknown) => m as Parameters<typeof ${coerce}>[0]`,
    `  const played = history.filter((m) => ${coerce}(like(m)).getType() === 'ai')`,
    '  const reply = replies[played.length % replies.length] ?? {}',
    `  return new ${ai}({`,
    "    content: reply.content ?? '',",
    '    tool_calls: (reply.tool_calls ?? []).map((c) => ({',
    '      name: c.name,',
    '      args: structuredClone(c.args ?? {}),',
    '      id: c.id ?? `call_${crypto.randomUUID()}`,',
    "      type: 'tool_call' as const,",
    '    })),',
    '    ...(reply.id !== undefined ? { id: reply.id } : {}),',
    '  })',
    '}',
  ].join('\n')
}

/** `state["messages"]`, or `state.messages` when the name is an identifier. */
function stateOf(field: string): string {
  const key = jsKey(field)
  return key === field ? `state.${field}` : `state[${jsString(field)}]`
}

/**
 * What a tools or model node needs before the node functions: a tools node's tool
 * functions (the document's code, through `codeConst`) and its tool list, a model's
 * replies or client. Empty for code and human nodes.
 */
export function kindSetup(
  ctx: Context,
  node: NodeSpec,
  codeConst: (name: string, type: string, code: string) => string,
): string[] {
  const kind = nodeKind(node)
  if (kind === 'tools') {
    const toolFn = local(ctx, 'ToolFn')
    const fns = (node.tools ?? []).map((t, j) =>
      codeConst(local(ctx, `tool:${node.id}:${j}`), toolFn, t.code),
    )
    const toolCalls = (node.tools ?? []).map((t, j) => {
      const schema = jsLiteral(t.parameters ?? { type: 'object', properties: {} }, '    ')
      const fields = [
        `    name: ${jsString(t.name)},`,
        `    description: ${jsString(t.description ?? `${t.name} tool`)},`,
        `    schema: ${schema},`,
      ]
      const fn = local(ctx, `tool:${node.id}:${j}`)
      return `  ${imported(ctx, 'tool', '@langchain/core/tools')}(${fn}, {\n${fields.join('\n')}\n  }),`
    })
    // An empty list is typed, or tsc --strict infers an implicit any[] (TS7034).
    const type = toolCalls.length
      ? ''
      : `: ConstructorParameters<typeof ${imported(ctx, 'ToolNode', '@langchain/langgraph/prebuilt')}>[0]`
    const list = toolCalls.length
      ? `const ${local(ctx, `tools:${node.id}`)} = [\n${toolCalls.join('\n')}\n]`
      : `const ${local(ctx, `tools:${node.id}`)}${type} = []`
    const comment = `// The tools of node ${jsString(node.id)}: the document's code, as LangChain tools.`
    return [[comment, ...fns, list].join('\n')]
  }
  if (kind !== 'model' || !node.model) return []
  const settings = node.model
  const name = local(ctx, `model:${node.id}`)
  if (settings.provider === 'scripted') {
    const replies = jsLiteral(settings.replies)
    return [
      `// The replies of model node ${jsString(node.id)}.\nconst ${name}: ${local(ctx, 'ScriptedReply')}[] = ${replies}`,
    ]
  }
  const options = [`model: ${jsString(settings.model)}`]
  if (settings.temperature !== undefined) options.push(`temperature: ${settings.temperature}`)
  // ChatOpenAI's `timeout` is in milliseconds, as the document's `timeoutMs`.
  if (settings.timeoutMs !== undefined) options.push(`timeout: ${settings.timeoutMs}`)
  options.push(`configuration: { baseURL: ${jsString(settings.baseUrl)} }`)
  const bound = ctx.graph.nodes.find((n) => n.id === node.bindTools && nodeKind(n) === 'tools')
  const bind = bound ? `.bindTools(${local(ctx, `tools:${bound.id}`)})` : ''
  const client = imported(ctx, 'ChatOpenAI', '@langchain/openai')
  return [
    [
      `// The chat model of node ${jsString(node.id)}. ChatOpenAI reads the API key from the`,
      '// environment (OPENAI_API_KEY): keys never go in a graph document or its export.',
      `const ${name} = new ${client}({\n${options.map((o) => `  ${o},`).join('\n')}\n})${bind}`,
    ].join('\n'),
  ]
}

/** The node function (or runnable) of a node that is not a code node. */
export function kindNodeValue(ctx: Context, node: NodeSpec): string {
  const field = messagesFieldOf(node)
  const out = jsKey(field)
  switch (nodeKind(node)) {
    case 'tools': {
      const toolNode = `new ${imported(ctx, 'ToolNode', '@langchain/langgraph/prebuilt')}(${local(ctx, `tools:${node.id}`)})`
      if (field === 'messages') return toolNode
      // ToolNode reads and writes `messages`: another field goes in as `messages` (with the
      // rest of the state, so that a Send's `lg_tool_call` still picks the call), and the tool
      // messages come out under the field, every Command a tool returned as it is.
      const isCommand = imported(ctx, 'isCommand', '@langchain/langgraph')
      return [
        'async (state) => {',
        `  const output: unknown = await ${toolNode}.invoke({ ...state, messages: ${stateOf(field)} })`,
        `  const rename = (o: unknown) => (${isCommand}(o) ? o : { ${out}: (o as { messages: unknown }).messages })`,
        '  return Array.isArray(output) ? output.map(rename) : rename(output)',
        '}',
      ].join('\n')
    }
    case 'graph':
      throw new Error(`BUG: ${node.id} is a graph node (the builder adds its subgraph)`)
    case 'human': {
      const write = jsKey(node.writeTo ?? '')
      return `(state) => ({ ${write}: interrupt(${stateOf(node.show ?? '')}) })`
    }
    case 'model': {
      const name = local(ctx, `model:${node.id}`)
      if (node.model?.provider === 'scripted') {
        return `(state) => ({ ${out}: [${local(ctx, 'playScripted')}(${name}, ${stateOf(field)})] })`
      }
      return `async (state) => ({ ${out}: [await ${name}.invoke(${stateOf(field)})] })`
    }
    case 'code':
      throw new Error(`BUG: ${node.id} is a code node`)
  }
}
