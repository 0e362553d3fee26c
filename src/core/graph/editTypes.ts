// The edit vocabulary, apart from `applyEdit` so that the helpers applying each edit
// (editNodes, editWiring, editFields, editCommon) can name it without importing edits.ts.
import type {
  AnyNodeKind,
  BranchSpec,
  FieldSpec,
  GraphSpec,
  NodeSpec,
  SubgraphSpec,
} from './schema'

/** A position on the canvas. */
export interface XY {
  x: number
  y: number
}

/**
 * Every change a user can make to a graph document, as data: the canvas, the inspector and
 * the schema panel all edit through these, so undo, autosave, export and running see one
 * truth. `applyEdit` is pure and returns the same object when an edit changes nothing.
 */
export type GraphEdit =
  | { type: 'setName'; name: string }
  | { type: 'addNode'; id?: string; code?: string; position?: XY }
  | { type: 'renameNode'; from: string; to: string }
  | { type: 'deleteNodes'; ids: string[] }
  | { type: 'moveNodes'; moves: { id: string; position: XY }[] }
  | { type: 'setNodeCode'; id: string; code: string }
  | { type: 'setNodeEnds'; id: string; ends: string[] }
  | { type: 'setNodeKind'; id: string; kind: AnyNodeKind; settings: Record<string, unknown> }
  | { type: 'addEdge'; from: string; to: string }
  | { type: 'addJoin'; from: string[]; to: string }
  | { type: 'deleteEdges'; indexes: number[] }
  | { type: 'addBranch'; from: string; router?: string; paths?: Record<string, string> }
  | { type: 'setBranchRouter'; index: number; router: string }
  | { type: 'setBranchPath'; index: number; key: string; to: string }
  | { type: 'deleteBranchPath'; index: number; key: string }
  | { type: 'deleteBranch'; index: number }
  | { type: 'addField'; field: FieldSpec }
  | { type: 'updateField'; name: string; patch: Partial<FieldSpec> }
  | { type: 'deleteField'; name: string }
  | { type: 'setBreakpoint'; node: string; when: 'before' | 'after'; on: boolean }
  | {
      type: 'paste'
      nodes: NodeSpec[]
      edges: GraphSpec['edges']
      branches: BranchSpec[]
      offset: XY
    }
  /** A subgraph added to `subgraphs`, with a graph node that runs it. */
  | { type: 'addSubgraph'; name: string; graph: SubgraphSpec; position?: XY }
  /** The nodes `ids` made into subgraph `name`, run by one graph node in their place. */
  | { type: 'groupIntoSubgraph'; ids: string[]; name: string }
  /** Several edits as one: all apply or none (one undo step). */
  | { type: 'batch'; edits: GraphEdit[] }

export type EditResult = { ok: true; doc: GraphSpec } | { ok: false; doc: GraphSpec; error: string }
