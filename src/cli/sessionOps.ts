import { z } from 'zod'
import type { SessionOp } from '../core/run'

const checkpoint = z.number().int().nonnegative().optional()
const OpSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('invoke'), input: z.json().nullable(), checkpoint }),
  z.object({ op: z.literal('resume'), value: z.json(), checkpoint }),
  z.object({
    op: z.literal('command'),
    resume: z.json().optional(),
    update: z.record(z.string(), z.json()).optional(),
    goto: z.union([z.string(), z.array(z.string())]).optional(),
    checkpoint,
  }),
  z.object({
    op: z.literal('update'),
    values: z.json().nullable(),
    asNode: z.string().optional(),
    checkpoint,
  }),
])

/** Validates an ops document (a JSON list of session operations). */
export function parseSessionOps(doc: unknown): { ops: SessionOp[] } | { problem: string } {
  const r = z.array(OpSchema).safeParse(doc)
  if (r.success) return { ops: r.data as SessionOp[] }
  const i = r.error.issues[0]
  return {
    problem: `not a list of operations: at ${(i?.path ?? []).join('.') || '(top)'}: ${i?.message}`,
  }
}
