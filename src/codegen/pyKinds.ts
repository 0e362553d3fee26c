/**
 * The agent node kinds in the Python export: a tools node is `ToolNode` over `@tool`
 * functions (their JavaScript translated by the rules of node code), a human node calls
 * `interrupt`, an OpenAI model is `ChatOpenAI`, a scripted model a node function that picks
 * its reply from the state as Superstep does, `tools_condition` the prebuilt router.
 */
import { messagesFieldOf, nodeKind } from '../core/graph/nodeKinds'
import type { FieldSpec, NodeSpec } from '../core/graph/schema'
import { translateFunction, type Translation } from './jsToPython'
import { use, type PyKindNode, type PyModule, type PyTool } from './pyModule'
import type { PyNamer } from './pyNames'
import { pyCall, pyNumber, pyValue } from './pyText'
import { pyComment, pyCommentText, pyProse, pyString } from './text'

/** Plans a kind node: names for the node, its tools and its list, replies or client. */
export function planKindNode(
  n: NodeSpec,
  name: string,
  names: PyNamer,
  reserved: string[],
): PyKindNode {
  const tools = (n.tools ?? []).map((t) => ({
    node: n.id,
    spec: t,
    name: names.take(t.name, 'tool'),
    translation: null as unknown as Translation,
  }))
  const what =
    nodeKind(n) === 'tools' ? 'tools' : n.model?.provider === 'scripted' ? 'replies' : 'model'
  const value = names.take(`${n.id}_${what}`, what)
  const all = [...reserved, ...tools.map((t) => t.name), value]
  for (const t of tools) {
    t.translation = translateFunction(t.spec.code, {
      kind: 'tool',
      fields: [] as FieldSpec[],
      reserved: all,
      where: `tool ${t.spec.name}`,
    })
  }
  return { node: n, name, value, tools }
}

function toolBlock(m: PyModule, t: PyTool): string {
  const tr = t.translation
  const label = `Tool ${pyString(t.spec.name)} of node ${pyString(t.node)}`
  const lines = tr.ok
    ? [`# ${label}: the call's arguments are \`state\`.`]
    : pyProse(`${label}, to translate by hand: ${pyCommentText(tr.reason)}.`)
  lines.push(
    '# JavaScript:',
    ...pyComment(t.spec.code).map((l) => (l === '#' ? l : `#     ${l.slice(2)}`)),
  )
  use(m, 'langchain_core.tools', 'tool')
  const schema = pyValue(t.spec.parameters ?? { type: 'object', properties: {} })
  const description = t.spec.description ?? `${t.spec.name} tool`
  lines.push(
    pyCall('@tool', [
      pyString(t.spec.name),
      `description=${pyString(description)}`,
      `args_schema=${schema}`,
    ]),
    '@_tool_output',
    `def ${t.name}(**state):`,
  )
  if (tr.ok) lines.push(...tr.body.map((l) => `    ${l}`))
  else {
    const message = `tool ${t.spec.name} of node ${t.node}: translate this JavaScript by hand`
    lines.push(`    raise NotImplementedError(${pyString(message)})`)
  }
  return lines.join('\n')
}

/** `state.get("messages")`: the field's value, None when it has none yet. */
const read = (field: string) => `state.get(${pyString(field)})`

/** The blocks of a kind node: its tools and list, its replies or client, its node function. */
export function kindBlocks(m: PyModule, k: PyKindNode): string[] {
  const n = k.node
  const field = messagesFieldOf(n)
  switch (nodeKind(n)) {
    case 'tools': {
      use(m, 'langgraph.prebuilt', 'ToolNode')
      const list = `${k.value} = [${k.tools.map((t) => t.name).join(', ')}]`
      const args = [
        k.value,
        ...(field === 'messages' ? [] : [`messages_key=${pyString(field)}`]),
        'handle_tool_errors=_tool_error',
        ...(k.tools.some(returnsCommand) ? ['wrap_tool_call=_tool_command'] : []),
      ]
      return [
        ...k.tools.map((t) => toolBlock(m, t)),
        [
          `# Node ${pyString(n.id)}: LangGraph's ToolNode.`,
          list,
          pyCall(`${k.name} = ToolNode`, args),
        ].join('\n'),
      ]
    }
    case 'graph':
      return [] // the builder adds the compiled subgraph itself
    case 'human': {
      use(m, 'langgraph.types', 'interrupt')
      return [
        [
          `# Node ${pyString(n.id)}: asks a human (interrupt), writes the answer to ${pyString(n.writeTo ?? '')}.`,
          `def ${k.name}(state):`,
          `    return {${pyString(n.writeTo ?? '')}: interrupt(${read(n.show ?? '')})}`,
        ].join('\n'),
      ]
    }
    case 'model':
      return modelBlocks(m, k, field)
    case 'code':
      throw new Error(`BUG: ${n.id} is a code node`)
  }
}

function modelBlocks(m: PyModule, k: PyKindNode, field: string): string[] {
  const n = k.node
  const settings = n.model
  if (!settings) return []
  const update = (call: string) => `    return {${pyString(field)}: [${call}]}`
  if (settings.provider === 'scripted') {
    return [
      [
        `# Node ${pyString(n.id)}: a scripted chat model (see _play_scripted).`,
        `${k.value} = ${pyValue(settings.replies)}`,
        '',
        '',
        `def ${k.name}(state):`,
        update(`_play_scripted(${k.value}, ${read(field)})`),
      ].join('\n'),
    ]
  }
  use(m, 'langchain_openai', 'ChatOpenAI')
  const options = [`model=${pyString(settings.model)}`]
  if (settings.temperature !== undefined)
    options.push(`temperature=${pyNumber(settings.temperature)}`)
  // langchain_openai's `timeout` is in seconds.
  if (settings.timeoutMs !== undefined)
    options.push(`timeout=${pyNumber(settings.timeoutMs / 1000)}`)
  options.push(`base_url=${pyString(settings.baseUrl)}`)
  const bound = m.kinds.find((o) => o.node.id === n.bindTools && nodeKind(o.node) === 'tools')
  const client = pyCall('ChatOpenAI', options)
  return [
    [
      `# Node ${pyString(n.id)}: a chat model. ChatOpenAI reads the API key from the environment`,
      '# (OPENAI_API_KEY): keys never go in a graph document or its export.',
      `${k.value} = ${client}${bound ? `.bind_tools(${bound.value})` : ''}`,
      '',
      '',
      `def ${k.name}(state):`,
      update(`${k.value}.invoke(${read(field)})`),
    ].join('\n'),
  ]
}

/** Whether a tool's code may return a Command (it names the class). */
const returnsCommand = (t: PyTool): boolean => /\bCommand\b/.test(t.spec.code)

/**
 * What a tools node's ToolNode needs to answer as LangGraph.js's does: a tool's output that is
 * not text becomes compact JSON (`JSON.stringify`, where Python's ToolNode would `json.dumps`
 * it with spaces or keep a list as content blocks), and a failing tool answers its call with
 * `Error: <message>` (Python's ToolNode would re-raise anything but a bad call). When a tool
 * may return a Command: the Command is the node's output as it is (Python's ToolNode would
 * require its update to hold a ToolMessage answering the call, and answer with an error).
 */
export function toolHelpers(m: PyModule): string[] {
  const tools = m.kinds.filter((k) => nodeKind(k.node) === 'tools')
  if (tools.length === 0) return []
  use(m, '', 'functools')
  use(m, '', 'json')
  const commands = tools.some((k) => k.tools.some(returnsCommand))
  if (commands) use(m, 'langgraph.types', 'Command')
  const output = commands
    ? [
        "# A tool's output as LangGraph.js's ToolNode writes it: text as is, a Command as the",
        "# node's output (see _tool_command), anything else as compact JSON.",
        'def _tool_output(fn):',
        '    @functools.wraps(fn)',
        '    def call(**args):',
        '        out = fn(**args)',
        '        if isinstance(out, str):',
        '            return out',
        '        if isinstance(out, Command):',
        '            raise _CommandOutput(out)',
        '        return json.dumps(out, separators=(",", ":"), ensure_ascii=False)',
        '',
        '    return call',
        '',
        '',
        "# A tool's Command goes to the graph as it is, as LangGraph.js's ToolNode hands it on;",
        "# Python's ToolNode would first require its update to answer the call with a ToolMessage.",
        '# It travels as an exception that is no Exception, so that no error handler takes it.',
        'class _CommandOutput(BaseException):',
        '    def __init__(self, command):',
        '        super().__init__()',
        '        self.command = command',
        '',
        '',
        'def _tool_command(request, execute):',
        '    try:',
        '        return execute(request)',
        '    except _CommandOutput as out:',
        '        return out.command',
      ]
    : [
        "# A tool's output as LangGraph.js's ToolNode writes it: text as is, anything else as",
        '# compact JSON.',
        'def _tool_output(fn):',
        '    @functools.wraps(fn)',
        '    def call(**args):',
        '        out = fn(**args)',
        '        if isinstance(out, str):',
        '            return out',
        '        return json.dumps(out, separators=(",", ":"), ensure_ascii=False)',
        '',
        '    return call',
      ]
  return [
    [
      ...output,
      '',
      '',
      "# A failing tool answers its call, as in LangGraph.js's ToolNode, instead of ending the run.",
      'def _tool_error(error):',
      '    return f"Error: {error}\\n Please fix your mistakes."',
    ].join('\n'),
  ]
}

/**
 * The player of the scripted models, when the graph has one: the reply is the number of AI
 * messages already in the field, modulo the replies, as Superstep plays it.
 */
export function scriptedHelper(m: PyModule): string[] {
  if (!m.kinds.some((k) => k.node.model?.provider === 'scripted')) return []
  use(m, '', 'copy')
  use(m, '', 'uuid')
  use(m, 'langchain_core.messages', 'AIMessage')
  use(m, 'langchain_core.messages', 'convert_to_messages')
  return [
    [
      '# A scripted chat model plays its replies as Superstep does: the reply is the number of AI',
      '# messages already in its messages field, modulo the replies, so a replay or a fork of a',
      "# checkpoint plays the same reply. Ids left out are LangChain's: add_messages gives the",
      '# message a uuid, a tool call gets `call_<uuid>`.',
      'def _play_scripted(replies, messages):',
      '    history = [] if messages is None else messages if isinstance(messages, list) else [messages]',
      '    played = sum(1 for message in convert_to_messages(history) if message.type == "ai")',
      '    reply = replies[played % len(replies)]',
      '    tool_calls = [',
      '        {',
      '            "name": call["name"],',
      '            "args": copy.deepcopy(call.get("args", {})),',
      '            "id": call["id"] if call.get("id") is not None else f"call_{uuid.uuid4()}",',
      '            "type": "tool_call",',
      '        }',
      '        for call in reply.get("tool_calls", [])',
      '    ]',
      '    ids = {"id": reply["id"]} if reply.get("id") is not None else {}',
      '    return AIMessage(content=reply.get("content", ""), tool_calls=tool_calls, **ids)',
    ].join('\n'),
  ]
}
