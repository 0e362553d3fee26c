import { z } from 'zod'

/**
 * The graph file format, version 1, as a zod schema. `docs/graph.schema.json` is generated
 * from it (`npm run schema`) and a test keeps the two in step.
 */
export const REDUCERS = [
  'overwrite',
  'append',
  'add',
  'add_messages',
  'union',
  'merge',
  'custom',
] as const
export const CHANNELS = ['topic', 'ephemeral'] as const

const json = z.json()

export const FieldSpecSchema = z
  .object({
    name: z.string().min(1).describe('The state key.'),
    reducer: z.enum(REDUCERS).optional().describe('How concurrent and successive writes fold.'),
    channel: z.enum(CHANNELS).optional().describe('A special channel instead of a reducer.'),
    accumulate: z.boolean().optional().describe('Topic only: keep values across steps.'),
    code: z.string().optional().describe('Custom reducer only: `(a, b) => c`.'),
    default: json.optional().describe('Initial value (JSON) of a reducer field.'),
    description: z.string().optional(),
  })
  .loose()

const Position = z.object({ x: z.number(), y: z.number() })

export const NodeSpecSchema = z
  .object({
    id: z.string().describe('Unique node name.'),
    code: z.string().describe('A JavaScript expression evaluating to `(state) => update`.'),
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
    router: z.string().describe('A JavaScript expression evaluating to `(state) => route`.'),
    paths: z
      .union([z.record(z.string(), z.string()), z.array(z.string())])
      .optional()
      .describe('Path map: route key to node, or the list of possible nodes.'),
  })
  .loose()

export const GraphSpecSchema = z
  .object({
    superstep: z.literal(1).describe('Format version.'),
    name: z.string(),
    description: z.string().optional(),
    state: z.array(FieldSpecSchema),
    nodes: z.array(NodeSpecSchema),
    edges: z.array(EdgeSpecSchema),
    branches: z.array(BranchSpecSchema).optional(),
    interruptBefore: z.array(z.string()).optional(),
    interruptAfter: z.array(z.string()).optional(),
  })
  .loose()

export type FieldSpec = z.infer<typeof FieldSpecSchema>
export type NodeSpec = z.infer<typeof NodeSpecSchema>
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
