/**
 * The thread file: a thread's checkpoints (in put order, with their pending writes) and its
 * task runs, as plain JSON. The worker writes it (`exportThread`); the page adds the graph
 * document before saving it. `parseThreadFile` checks one before anything is imported.
 */
import { z } from 'zod'
import type { CheckpointTuple } from '../core/checkpoint/types'
import type { TaskRunRow, ThreadSettings } from './db'
import { foundNote } from '../lib/found'

export interface ThreadFile {
  superstepThread: 1
  /** The thread the file was exported from. */
  threadId: string
  name: string
  /** Oldest first (put order), each with its pending writes. */
  checkpoints: CheckpointTuple[]
  taskRuns: TaskRunRow[]
  /**
   * The subgraphs' checkpoints (LangGraph's `checkpoint_ns`, in each tuple's
   * `config.checkpointNs`), each namespace in put order; absent when the thread has none.
   */
  subgraphCheckpoints?: CheckpointTuple[]
  /** The thread's run settings (recursion limit, timeout, run config); absent in older files. */
  settings?: ThreadSettings
}

const versions = z.record(z.string(), z.number())
const config = z.object({
  threadId: z.string(),
  checkpointId: z.string().min(1),
  checkpointNs: z.string().optional(),
})

const CheckpointTupleSchema = z
  .object({
    config,
    checkpoint: z.object({
      v: z.literal(1),
      id: z.string().min(1),
      ts: z.string(),
      channel_values: z.record(z.string(), z.unknown()),
      channel_versions: versions,
      versions_seen: z.record(z.string(), versions),
    }),
    metadata: z.object({
      source: z.enum(['input', 'loop', 'update', 'fork']),
      step: z.number().int(),
      parents: z.record(z.string(), z.string()),
    }),
    // JSON drops `parentConfig: undefined`: a root has none.
    parentConfig: config.optional(),
    pendingWrites: z.array(z.tuple([z.string(), z.string(), z.unknown()])),
  })
  // A tuple always has the key, if only as undefined.
  .transform((t) => ({ ...t, parentConfig: t.parentConfig }))

const TaskRunSchema = z.object({
  threadId: z.string(),
  checkpointId: z.string(),
  taskId: z.string(),
  name: z.string(),
  durationMs: z.number(),
  logs: z.array(
    z.object({
      level: z.enum(['log', 'info', 'warn', 'error', 'debug']),
      args: z.array(z.unknown()),
      at: z.number(),
    }),
  ),
  error: z.object({ name: z.string(), message: z.string() }).optional(),
  warnings: z
    .array(z.object({ code: z.string(), field: z.string().optional(), message: z.string() }))
    .optional(),
})

/** A thread file's shape, and that its checkpoints form a history (parents come first). */
export const ThreadFileSchema = z
  .object({
    superstepThread: z.literal(1),
    threadId: z.string(),
    name: z.string(),
    checkpoints: z.array(CheckpointTupleSchema),
    taskRuns: z.array(TaskRunSchema).default([]),
    subgraphCheckpoints: z.array(CheckpointTupleSchema).optional(),
    // Keys a later version adds are dropped (zod strips them), not refused.
    settings: z
      .object({
        recursionLimit: z.number().int().positive().optional(),
        timeoutMs: z.number().min(0).optional(),
        configurable: z
          .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
          .optional(),
      })
      .optional(),
  })
  .superRefine((file, ctx) => {
    // A subgraph's checkpoints: each names its namespace, and its parent is an earlier one
    // of the same namespace.
    const seenIn = new Map<string, Set<string>>()
    file.subgraphCheckpoints?.forEach((t, i) => {
      const at = (...path: string[]) => ['subgraphCheckpoints', i, ...path]
      const ns = t.config.checkpointNs
      if (!ns) {
        ctx.addIssue({
          code: 'custom',
          path: at('config', 'checkpointNs'),
          message: 'a subgraph checkpoint names its namespace',
        })
        return
      }
      const seen = seenIn.get(ns) ?? new Set<string>()
      seenIn.set(ns, seen)
      const id = t.checkpoint.id
      if (seen.has(id) || t.config.checkpointId !== id)
        ctx.addIssue({
          code: 'custom',
          path: at('checkpoint', 'id'),
          message: `${id} twice in namespace ${ns}, or not its config's checkpointId`,
        })
      const parent = t.parentConfig?.checkpointId
      if (parent !== undefined && !seen.has(parent))
        ctx.addIssue({
          code: 'custom',
          path: at('parentConfig', 'checkpointId'),
          message: `parent ${parent} is not an earlier checkpoint of namespace ${ns} in the file`,
        })
      seen.add(id)
    })
    const seen = new Set<string>()
    file.checkpoints.forEach((t, i) => {
      const id = t.checkpoint.id
      const at = (...path: string[]) => ['checkpoints', i, ...path]
      if (seen.has(id))
        ctx.addIssue({ code: 'custom', path: at('checkpoint', 'id'), message: `${id} twice` })
      if (t.config.checkpointId !== id)
        ctx.addIssue({
          code: 'custom',
          path: at('config', 'checkpointId'),
          message: `${t.config.checkpointId} is not the checkpoint's id ${id}`,
        })
      const parent = t.parentConfig?.checkpointId
      if (parent !== undefined && !seen.has(parent))
        ctx.addIssue({
          code: 'custom',
          path: at('parentConfig', 'checkpointId'),
          message: `parent ${parent} is not an earlier checkpoint of the file`,
        })
      seen.add(id)
    })
    file.taskRuns.forEach((r, i) => {
      if (!seen.has(r.checkpointId))
        ctx.addIssue({
          code: 'custom',
          path: ['taskRuns', i, 'checkpointId'],
          message: `${r.checkpointId} is not a checkpoint of the file`,
        })
    })
  })

// The schema's output must be a ThreadFile (checked here, once, by the compiler).
type Parsed = z.output<typeof ThreadFileSchema>
const _fits = (p: Parsed): ThreadFile => p
void _fits

export type ThreadFileParse = { ok: true; file: ThreadFile } | { ok: false; message: string }

/**
 * Checks `data` against the thread file format. A bad file's message says what is wrong and
 * where: `checkpoints[3].checkpoint.channel_versions.x: Invalid input: expected number, …`.
 */
export function parseThreadFile(data: unknown): ThreadFileParse {
  const r = ThreadFileSchema.safeParse(data)
  if (r.success) return { ok: true, file: r.data }
  const [first, ...rest] = r.error.issues
  const where = first && first.path.length ? formatPath(first.path) : 'the file'
  const more = rest.length ? ` (and ${rest.length} more problem${rest.length > 1 ? 's' : ''})` : ''
  const found = first ? foundNote(data, first) : ''
  return { ok: false, message: `${where}: ${first?.message ?? 'invalid'}${found}${more}` }
}

/** `['checkpoints', 3, 'checkpoint', 'id']` as `checkpoints[3].checkpoint.id`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key
    else out += `[${JSON.stringify(String(key))}]`
  }
  return out
}
