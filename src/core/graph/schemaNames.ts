/**
 * The names the graph file format is made of (reducers, channels, field types, node kinds,
 * prebuilt routers), apart from schema.ts's zod schemas: code that runs a graph needs these
 * and not the schemas (the sandbox's loop program, see src/worker/sandbox/loopMain.ts).
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
/**
 * The types a state field may declare: a JSON Schema subset, plus `messages` (a list of
 * LangChain messages) and `any` (the same as no type).
 */
export const FIELD_TYPES = [
  'string',
  'number',
  'integer',
  'boolean',
  'object',
  'array',
  'messages',
  'any',
] as const

/** What a node is: user code, or one of the agent building blocks (what the inspector offers). */
export const NODE_KINDS = ['code', 'model', 'tools', 'human'] as const
/** A node that runs a subgraph of the document (LangGraph's `addNode(id, compiledSubgraph)`). */
export const GRAPH_NODE_KIND = 'graph'
/** Every kind a node may have in a document. */
export const ALL_NODE_KINDS = [...NODE_KINDS, GRAPH_NODE_KIND] as const
/** Router values that name a LangGraph prebuilt router instead of holding code. */
export const PREBUILT_ROUTERS = ['tools_condition'] as const
