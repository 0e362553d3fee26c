/**
 * The agent building blocks as node runners: a chat model (scripted, or a provider the
 * embedding app injects), LangGraph's ToolNode, a human-in-the-loop node, and the prebuilt
 * `tools_condition` router. Pure: ids come from the injected `newId`, a network model only
 * through {@link ChatModelProvider}.
 */
import { END } from '../graph/constants'
import { messagesFieldOf } from '../graph/nodeKinds'
import type { FieldSpec, ModelSettings, NodeSpec, ScriptedReply, ToolSpec } from '../graph/schema'
import { validateJson } from '../../lib/jsonSchema'
import { GraphInterrupt } from '../pregel/errors'
import { createInterrupt } from '../pregel/interrupt'
import { Command, isCommand, isSend, reviveControl, type Send } from '../pregel/types'
import { toMessage, type Message } from '../reducers/addMessages'
import type { CodeEvaluator } from './evaluate'
import type { CodeHost } from './host'
import { runRemoteCode } from './runners'
import type { AiMessageDelta, NodeCallContext, NodeRunner } from './compiledTypes'

export type { AiMessageDelta } from './compiledTypes'

/** An AI message in LangChain's serialised plain form. */
export type AiMessageJson = Message & { type: 'ai' }

/** A tool as a model sees it when the tools are bound. */
export interface ToolDefinition {
  name: string
  description: string
  parameters: Record<string, unknown>
}

/** One call of a model node on a provider the runtime does not implement itself. */
export interface ChatModelRequest {
  /** The model node's id. */
  node: string
  /** The node's settings as the document has them (never an API key). */
  settings: Exclude<ModelSettings, { provider: 'scripted' }>
  /** The messages field's value, canonical. */
  messages: Message[]
  /** The tools of the node's `bindTools` tools node; empty when none are bound. */
  tools: ToolDefinition[]
  /**
   * Set when the run streams messages: called with each piece of the reply as it arrives
   * (in order); the call still resolves to the whole reply.
   */
  onDelta?: (delta: AiMessageDelta) => void
}

/**
 * Calls network-backed chat models (the worker's OpenAI-compatible client, which holds the
 * keys). Resolves to the reply; a missing `id` is assigned from `newId` (LangChain leaves it to
 * add_messages, which gives a uuid). Rejects with a clear error on any failure.
 */
export interface ChatModelProvider {
  call(request: ChatModelRequest): Promise<AiMessageJson>
}

/** A model node whose provider the runtime was not given (e.g. `openai` outside the worker). */
export class ModelProviderUnavailableError extends Error {
  override name = 'ModelProviderUnavailableError'
  lc_error_code = 'MODEL_PROVIDER_UNAVAILABLE'
}

export interface KindOptions {
  evaluate: CodeEvaluator
  newId: () => string
  host?: CodeHost
  models?: ChatModelProvider
  /** The graph's nodes, to find a model's bound tools. */
  nodes: readonly NodeSpec[]
  /** The graph's state fields, to know which hold LangChain messages (add_messages). */
  state: readonly FieldSpec[]
}

function messagesOf(state: unknown, field: string): Message[] {
  const value = (state as Record<string, unknown> | null)?.[field]
  if (value === undefined || value === null) return []
  return (Array.isArray(value) ? value : [value]).map(toMessage)
}

/**
 * Which reply a scripted model plays: the number of AI messages already in its messages
 * field, modulo the script's length. Derived from the state (not counted in the model, as
 * LangChain's fake models do), so a replay or a fork of a checkpoint plays the same reply.
 */
export function scriptedReplyIndex(messages: readonly Message[], replies: number): number {
  return messages.filter((m) => m.type === 'ai').length % replies
}

function scriptedMessage(reply: ScriptedReply, newId: () => string): AiMessageJson {
  const message: AiMessageJson = { type: 'ai', content: reply.content ?? '' }
  if (reply.tool_calls?.length) {
    message.tool_calls = reply.tool_calls.map((c) => ({
      name: c.name,
      args: structuredClone(c.args ?? {}),
      id: c.id ?? `call_${newId()}`,
    }))
  }
  message.id = reply.id ?? newId()
  return message
}

/**
 * How a scripted reply streams when the run streams messages (the scripted split): its text
 * in word-like pieces, each run of whitespace with the word after it (`/\s*\S+|\s+/g`, so
 * "Tea is ready." gives "Tea", " is", " ready."), then one piece per tool call, in order, with
 * the call's id, name and whole arguments as JSON (`index`: its place among the calls); a
 * reply with neither text nor calls as one empty piece. The pieces add up to the reply.
 */
export function scriptedDeltas(message: AiMessageJson): AiMessageDelta[] {
  const text = typeof message.content === 'string' ? message.content : ''
  const deltas: AiMessageDelta[] = (text.match(/\s*\S+|\s+/g) ?? []).map((content) => ({
    content,
  }))
  ;(message.tool_calls ?? []).forEach((c, index) => {
    const args = JSON.stringify(c.args ?? {})
    const id = c.id === undefined ? {} : { id: c.id }
    deltas.push({ content: '', tool_call_chunks: [{ index, ...id, name: c.name, args }] })
  })
  if (deltas.length === 0) deltas.push({ content: '' })
  return deltas
}

export function modelRunner(node: NodeSpec, opts: KindOptions): NodeRunner {
  const field = messagesFieldOf(node)
  const settings = node.model
  if (!settings) throw new Error(`BUG: model node \`${node.id}\` has no settings.`)
  if (settings.provider === 'scripted') {
    const replies = settings.replies
    return (state, ctx) => {
      const reply = replies[scriptedReplyIndex(messagesOf(state, field), replies.length)]
      const message = scriptedMessage(reply as ScriptedReply, opts.newId)
      const { onDelta } = ctx
      if (onDelta) for (const d of scriptedDeltas(message)) onDelta(message.id as string, d)
      return { [field]: [message] }
    }
  }
  const bound = opts.nodes.find((n) => n.id === node.bindTools)?.tools ?? []
  const tools = bound.map(toolDefinition)
  return async (state, ctx) => {
    if (!opts.models) {
      throw new ModelProviderUnavailableError(
        `Model node \`${node.id}\` uses the ${settings.provider} provider, which this runtime cannot call: run it in the app (with an API key in the local settings), or use a scripted model.`,
      )
    }
    // Streamed, the pieces carry the reply's id: the endpoint's, else one given now.
    let streamedId: string | undefined
    const { onDelta } = ctx
    const reply = await opts.models.call({
      node: node.id,
      settings,
      messages: messagesOf(state, field),
      tools,
      ...(onDelta && {
        onDelta: (delta: AiMessageDelta) =>
          onDelta((streamedId ??= delta.id ?? opts.newId()), delta),
      }),
    })
    const message = toMessage(reply)
    if (message.type !== 'ai') {
      throw new Error(
        `Model node \`${node.id}\`: the provider replied with a ${message.type} message.`,
      )
    }
    // A streamed reply keeps the id its pieces carried, so the stream's consumers (and the
    // messages mode's dedupe) see one message.
    if (streamedId !== undefined) message.id = streamedId
    else if (message.id === undefined) message.id = opts.newId()
    return { [field]: [message] }
  }
}

/** A tool's JSON schema; a tool without one takes no arguments. */
function parametersOf(t: ToolSpec): Record<string, unknown> {
  return t.parameters ?? { type: 'object', properties: {} }
}

function toolDefinition(t: ToolSpec): ToolDefinition {
  return {
    name: t.name,
    description: t.description ?? `${t.name} tool`,
    parameters: parametersOf(t),
  }
}

/**
 * One tools-node task as its tools see it: the task, its `interrupt` (one per task), and a
 * queue for the calls that must see each other's answers in turn.
 */
interface ToolTask {
  ctx: NodeCallContext
  interrupt: () => (value: unknown) => unknown
  inTurn: <T>(run: () => Promise<T>) => Promise<T>
}

type ToolFn = (args: unknown, task: ToolTask) => Promise<unknown>

/**
 * A tool's code as a function of its arguments. `interrupt()` pauses the whole tools task as
 * it does in a code node: locally through the task's one `interrupt`, shared by its tool
 * calls as LangGraph's scratchpad is; in a host with the task's answers, as
 * `remoteNodeRunner` does, one such call at a time in call order, each going on from the
 * scratchpad the one before left (so the second `interrupt()` gets the second answer).
 * The output comes back as the host returned it (a Command as a plain object with `lg_name`);
 * the tools node revives it.
 */
function toolFunction(node: NodeSpec, t: ToolSpec, opts: KindOptions): ToolFn {
  const { host } = opts
  if (host) {
    const run = (args: unknown, ctx: NodeCallContext) =>
      runRemoteCode(host, node.id, t.code, args, ctx)
    if (!/\binterrupt\b/.test(t.code)) return (args, { ctx }) => run(args, ctx)
    return (args, task) => task.inTurn(() => run(args, task.ctx))
  }
  const ref = { kind: 'node', owner: node.id } as const
  const fn = opts.evaluate(t.code, ref)
  if (!/\binterrupt\b/.test(t.code)) return async (args) => fn(args)
  return async (args, task) => opts.evaluate(t.code, ref, { interrupt: task.interrupt() })(args)
}

/** LangChain's ToolInputParsingException text (`verboseParsingErrors` is off in `tool()`). */
export const TOOL_INPUT_MISMATCH = 'Received tool input did not match expected schema'

/**
 * The input LangChain's StructuredTool.call gives a tool's function for a JSON schema: the
 * arguments (their own `args` when they are themselves tool-call shaped), validated by
 * `@cfworker/json-schema`. Throws what the tool would; ToolNode makes it an error message.
 */
export function parseToolInput(args: unknown, schema: Record<string, unknown>): unknown {
  const isToolCall =
    typeof args === 'object' && args !== null && (args as { type?: unknown }).type === 'tool_call'
  const input = isToolCall ? (args as { args?: unknown }).args : args
  if (!validateJson(input, schema).valid) throw new Error(TOOL_INPUT_MISMATCH)
  return input
}

/** LangChain's tool output formatting: strings and content blocks as they are, else JSON. */
function toolContent(output: unknown, hasCallId: boolean): unknown {
  if (typeof output === 'string') return output
  if (!hasCallId) return JSON.stringify(output)
  const isBlocks =
    Array.isArray(output) && output.every((b) => typeof b === 'object' && b !== null && 'type' in b)
  if (isBlocks) return output
  try {
    return JSON.stringify(output) ?? ''
  } catch {
    return String(output)
  }
}

/** LangGraph's ToolNode's error for an input that is not messages (or a Send's tool call). */
export const TOOL_NODE_INPUT_ERROR =
  'ToolNode only accepts BaseMessage[] or { messages: BaseMessage[] } as input.'

/** A field LangGraph holds LangChain messages in: an add_messages field (not a channel). */
export function holdsMessages(field: FieldSpec | undefined): boolean {
  return field?.reducer === 'add_messages' && field.channel === undefined
}

/**
 * The messages a tools node reads, as ToolNode checks them: the field must hold a list of
 * LangChain messages. Superstep keeps every message as plain data, but only an add_messages
 * field holds messages in LangGraph (its reducer coerces what is written); in any other
 * field the values are what nodes and the input wrote, plain objects that ToolNode refuses.
 * An empty list passes, as `[].every(isBaseMessage)` does; a field without a value fails.
 */
function toolNodeMessages(state: unknown, name: string, field: FieldSpec | undefined): Message[] {
  const value = (state as Record<string, unknown> | null)?.[name]
  if (!Array.isArray(value) || (value.length > 0 && !holdsMessages(field))) {
    throw new Error(TOOL_NODE_INPUT_ERROR)
  }
  return value.map(toMessage)
}

/** A tool call as a message (or a Send's `lg_tool_call`) carries it. */
interface ToolCallLike {
  name: string
  args?: unknown
  id?: string
}

/** ToolNode's Send input (createReactAgent v2): the state with the one call to run. */
function isSendInput(input: unknown): input is { lg_tool_call: ToolCallLike } {
  return typeof input === 'object' && input !== null && 'lg_tool_call' in input
}

/**
 * ToolNode's output: `{ [field]: messages }` when no tool returned a Command; else, in call
 * order, each Command as it is and each message as `{ [field]: [message] }`, the Commands to
 * the parent graph whose goto is all Sends merged into one, last.
 */
function toolNodeOutput(outputs: (Message | Command)[], field: string): unknown {
  if (!outputs.some(isCommand)) return { [field]: outputs }
  const combined: unknown[] = []
  let parent: Command | null = null
  for (const output of outputs) {
    if (!isCommand(output)) combined.push({ [field]: [output] })
    else if (output.graph === Command.PARENT && output.goto.every(isSend)) {
      if (parent) parent.goto.push(...output.goto)
      else parent = new Command({ graph: Command.PARENT, goto: output.goto as Send[] })
    } else combined.push(output)
  }
  if (parent) combined.push(parent)
  return combined
}

/**
 * LangGraph's ToolNode: runs the tool calls of the last AI message that no tool message
 * answers yet, concurrently, and appends one tool message per call in call order; given a
 * Send's `{ ...state, lg_tool_call }`, runs that one call only. A tool that returns a
 * Command hands it on as the node's output (see {@link toolNodeOutput}). Arguments that fail
 * the tool's schema, a tool that throws, or a missing tool become an error tool message with
 * ToolNode's text; an `interrupt()` in a tool pauses the task (and on resume the whole node
 * runs again, as ToolNode does).
 */
export function toolsRunner(node: NodeSpec, opts: KindOptions): NodeRunner {
  const field = messagesFieldOf(node)
  const fieldSpec = opts.state.find((f) => f.name === field)
  const tools = new Map(
    (node.tools ?? []).map((t) => [
      t.name,
      { run: toolFunction(node, t, opts), schema: parametersOf(t) },
    ]),
  )
  return async (state, ctx) => {
    let interrupt: ((value: unknown) => unknown) | undefined
    let turn: Promise<unknown> = Promise.resolve()
    const task: ToolTask = {
      ctx,
      interrupt: () => (interrupt ??= createInterrupt(ctx.pad, ctx.write)),
      inTurn: (run) => {
        const mine = turn.then(run)
        turn = mine.catch(() => undefined)
        return mine
      },
    }
    const runCall = async (call: ToolCallLike): Promise<Message | Command> => {
      const tool = tools.get(call.name)
      try {
        if (!tool) throw new Error(`Tool "${call.name}" not found.`)
        const input = parseToolInput(structuredClone(call.args), tool.schema)
        const output = reviveControl(await tool.run(input, task))
        if (isCommand(output)) return output
        const m: Message = {
          type: 'tool',
          content: toolContent(output, Boolean(call.id)),
          name: call.name,
          status: 'success',
        }
        if (call.id !== undefined) m.tool_call_id = call.id
        return m
      } catch (e) {
        if (e instanceof GraphInterrupt) throw e
        const message = (e as { message?: unknown } | null)?.message
        return {
          type: 'tool',
          content: `Error: ${String(message)}\n Please fix your mistakes.`,
          name: call.name,
          tool_call_id: call.id ?? '',
          status: 'error',
        }
      }
    }
    if (isSendInput(state)) return toolNodeOutput([await runCall(state.lg_tool_call)], field)
    const messages = toolNodeMessages(state, field, fieldSpec)
    const answered = new Set(messages.filter((m) => m.type === 'tool').map((m) => m.tool_call_id))
    const ai = messages.findLast((m) => m.type === 'ai')
    if (!ai) throw new Error('ToolNode only accepts AIMessages as input.')
    const calls = (ai.tool_calls ?? []).filter((c) => c.id == null || !answered.has(c.id))
    return toolNodeOutput(await Promise.all(calls.map(runCall)), field)
  }
}

/** `interrupt(state[show])`, then the answer written to `writeTo`. */
export function humanRunner(node: NodeSpec): NodeRunner {
  const show = node.show ?? ''
  const writeTo = node.writeTo ?? ''
  return (state, ctx) => {
    const interrupt = createInterrupt(ctx.pad, ctx.write)
    return { [writeTo]: interrupt((state as Record<string, unknown>)[show]) }
  }
}

/** LangGraph's `toolsCondition`: "tools" when the last message has tool calls, else END. */
export function toolsCondition(state: unknown): string {
  const messages = (state as { messages: Message[] }).messages
  const message = messages[messages.length - 1]
  const calls = (message as { tool_calls?: unknown[] } | undefined)?.tool_calls
  if (message !== undefined && calls !== undefined && calls.length > 0) return 'tools'
  return END
}
