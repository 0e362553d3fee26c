import { z } from '../../lib/zod'
import {
  ALL_NODE_KINDS,
  CHANNELS,
  FIELD_TYPES,
  GRAPH_NODE_KIND,
  NODE_KINDS,
  PREBUILT_ROUTERS,
  REDUCERS,
} from './schemaNames'

export {
  ALL_NODE_KINDS,
  CHANNELS,
  FIELD_TYPES,
  GRAPH_NODE_KIND,
  NODE_KINDS,
  PREBUILT_ROUTERS,
  REDUCERS,
}

/**
 * The graph file format, version 1, as a zod schema. `docs/graph.schema.json` is generated
 * from it (`npm run schema`) and a test keeps the two in step.
 */

const json = z.json()

export type FieldTypeName = (typeof FIELD_TYPES)[number]
/** A field's type: a name, or `{ "type": "array", "items": <type> }` (JSON Schema's form). */
export type FieldType = FieldTypeName | { type: FieldTypeName; items?: FieldType }

const FieldTypeObjectSchema = z
  .object({
    type: z.enum(FIELD_TYPES),
    get items(): z.ZodOptional<z.ZodType<FieldType>> {
      return FieldTypeSchema.optional().describe('Arrays only: the type of the items.')
    },
  })
  .loose()

export const FieldTypeSchema: z.ZodType<FieldType> = z
  .union([z.enum(FIELD_TYPES), FieldTypeObjectSchema])
  .meta({
    id: 'FieldType',
    description:
      'A type name, or `{ "type": "array", "items": <type> }` for a list of a type. `array` alone is a list of any.',
  })

export const FieldSpecSchema = z
  .object({
    name: z.string().min(1).describe('The state key.'),
    reducer: z.enum(REDUCERS).optional().describe('How concurrent and successive writes fold.'),
    channel: z.enum(CHANNELS).optional().describe('A special channel instead of a reducer.'),
    accumulate: z.boolean().optional().describe('Topic only: keep values across steps.'),
    code: z.string().optional().describe('Custom reducer only: `(a, b) => c`.'),
    default: json.optional().describe('Initial value (JSON) of a reducer field.'),
    type: FieldTypeSchema.optional().describe(
      'The type of the value (default `any`): checked against the default and every write, used by the exports.',
    ),
    description: z.string().optional(),
  })
  .loose()

const Position = z.object({ x: z.number(), y: z.number() })

const ToolCallSpecSchema = z
  .object({
    name: z.string().min(1),
    args: z.record(z.string(), json).optional().describe('The arguments (default `{}`).'),
    id: z.string().optional().describe('Tool call id; generated when absent.'),
  })
  .loose()

export const ScriptedReplySchema = z
  .object({
    content: z.string().optional().describe('The reply text (default "").'),
    tool_calls: z.array(ToolCallSpecSchema).optional(),
    id: z.string().optional().describe('Message id; generated when absent.'),
  })
  .loose()

export const ModelSettingsSchema = z.discriminatedUnion('provider', [
  z
    .object({
      provider: z.literal('scripted'),
      replies: z
        .array(ScriptedReplySchema)
        .min(1)
        .describe('Played in order, one per call, starting over after the last.'),
    })
    .loose(),
  z
    .object({
      provider: z.literal('openai'),
      baseUrl: z.string().describe('An OpenAI-compatible chat-completions endpoint.'),
      model: z.string(),
      temperature: z.number().optional(),
      timeoutMs: z
        .number()
        .optional()
        .describe('How long one call may take, in milliseconds (default 60000).'),
    })
    .loose(),
])

export const ToolSpecSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z
      .record(z.string(), json)
      .optional()
      .describe('JSON Schema of the arguments: an object schema (default: no arguments).'),
    code: z.string().describe('A JavaScript expression evaluating to `(args) => result`.'),
  })
  .loose()

export const NodeSpecSchema = z
  .object({
    id: z.string().describe('Unique node name.'),
    kind: z.enum(ALL_NODE_KINDS).optional().describe('What the node is (default "code").'),
    graph: z
      .string()
      .optional()
      .describe('Graph nodes: the name of the subgraph (a key of `subgraphs`) the node runs.'),
    code: z
      .string()
      .optional()
      .describe('Code nodes: a JavaScript expression evaluating to `(state) => update`.'),
    model: ModelSettingsSchema.optional().describe('Model nodes: the chat model.'),
    messagesField: z
      .string()
      .optional()
      .describe('Model and tools nodes: the messages field (default "messages").'),
    bindTools: z.string().optional().describe('Model nodes: the tools node whose tools are bound.'),
    tools: z.array(ToolSpecSchema).optional().describe('Tools nodes: the tools.'),
    show: z.string().optional().describe('Human nodes: the field whose value `interrupt` shows.'),
    writeTo: z.string().optional().describe('Human nodes: the field the reply is written to.'),
    ends: z.array(z.string()).optional().describe('Where a returned `Command({ goto })` may go.'),
    defer: z.boolean().optional().describe('Run only when the rest of the graph has finished.'),
    position: Position.optional(),
    description: z.string().optional(),
  })
  .loose()

export const EdgeSpecSchema = z
  .object({
    from: z.union([z.string(), z.array(z.string()).min(1)]).describe('A list is a join.'),
    to: z.string(),
  })
  .loose()

export const BranchSpecSchema = z
  .object({
    from: z.string(),
    router: z
      .string()
      .describe(
        'A JavaScript expression evaluating to `(state) => route`, or `"tools_condition"` (LangGraph\'s prebuilt router).',
      ),
    paths: z
      .union([z.record(z.string(), z.string()), z.array(z.string())])
      .optional()
      .describe('Path map: route key to node, or the list of possible nodes.'),
  })
  .loose()

/** The keys a graph document and a subgraph share. */
const graphBody = {
  description: z.string().optional(),
  state: z.array(FieldSpecSchema),
  nodes: z.array(NodeSpecSchema),
  edges: z.array(EdgeSpecSchema),
  branches: z.array(BranchSpecSchema).optional(),
  interruptBefore: z.array(z.string()).optional(),
  interruptAfter: z.array(z.string()).optional(),
}

/**
 * A graph a document uses, by name: a graph document without the `superstep` key. It may
 * hold subgraphs of its own; a name resolves in the nearest enclosing `subgraphs`.
 */
export interface SubgraphSpec extends z.infer<z.ZodObject<typeof graphBody>> {
  name?: string
  subgraphs?: Record<string, SubgraphSpec>
  [key: string]: unknown
}

export const SubgraphSpecSchema: z.ZodType<SubgraphSpec> = z
  .object({
    name: z.string().optional(),
    ...graphBody,
    get subgraphs(): z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodType<SubgraphSpec>>> {
      return z.record(z.string(), SubgraphSpecSchema).optional()
    },
  })
  .loose()
  .meta({
    id: 'Subgraph',
    description:
      'A graph used by a graph node or by node code: a graph document without `superstep`.',
  })

/** One setting a graph takes from its run's `config.configurable` (see docs/graph-format.md). */
export const ConfigSettingSpecSchema = z
  .object({
    name: z.string().min(1).describe('The key in `config.configurable`.'),
    type: z.enum(['string', 'number', 'boolean']),
    default: z
      .union([z.string(), z.number(), z.boolean()])
      .optional()
      .describe('Fills `configurable` when the run does not give the setting.'),
    description: z.string().optional(),
  })
  .loose()
  .superRefine((setting, ctx) => {
    if (setting.default !== undefined && typeof setting.default !== setting.type)
      ctx.addIssue({
        code: 'custom',
        path: ['default'],
        message: `The default of setting \`${setting.name}\` must be a ${setting.type}`,
      })
  })

export const GraphSpecSchema = z
  .object({
    superstep: z.literal(1).describe('Format version.'),
    name: z.string(),
    ...graphBody,
    config: z
      .array(ConfigSettingSpecSchema)
      .optional()
      .describe(
        "The run settings the graph's code reads from `config.configurable` (node code and routers get `(state, config)`).",
      ),
    subgraphs: z
      .record(z.string(), SubgraphSpecSchema)
      .optional()
      .describe(
        'The graphs this document uses, by name (graph nodes, `subgraphs.<name>` in code).',
      ),
  })
  .loose()

export type FieldSpec = z.infer<typeof FieldSpecSchema>
export type NodeSpec = z.infer<typeof NodeSpecSchema>
/** The kinds the inspector offers; see {@link AnyNodeKind} for every kind. */
export type NodeKind = (typeof NODE_KINDS)[number]
export type AnyNodeKind = (typeof ALL_NODE_KINDS)[number]
export type ModelSettings = z.infer<typeof ModelSettingsSchema>
export type ScriptedReply = z.infer<typeof ScriptedReplySchema>
export type ToolSpec = z.infer<typeof ToolSpecSchema>
export type ConfigSettingSpec = z.infer<typeof ConfigSettingSpecSchema>
export type EdgeSpec = z.infer<typeof EdgeSpecSchema>
export type BranchSpec = z.infer<typeof BranchSpecSchema>
export type GraphSpec = z.infer<typeof GraphSpecSchema>
export type ReducerName = (typeof REDUCERS)[number]

/** The JSON Schema of the format (draft 2020-12). */
export function graphJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(GraphSpecSchema, { target: 'draft-2020-12' }),
    title: 'Superstep graph document, version 1',
  }
}

/** The schema as the text of `docs/graph.schema.json`. */
export function graphJsonSchemaText(): string {
  return `${JSON.stringify(graphJsonSchema(), null, 2)}\n`
}
