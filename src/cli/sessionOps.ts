import { z } from 'zod'
import type { SessionOp } from '../core/run'
import { foundNote } from '../lib/found'

/** What every op may carry: the checkpoint it addresses, and whether its error ends the session. */
const common = {
  checkpoint: z.number().int().nonnegative().optional(),
  subgraphCheckpoint: z.number().int().nonnegative().optional(),
  continueOnError: z.boolean().optional(),
}
const send = z.object({ node: z.string(), args: z.json() })
const goto = z.union([send, z.string()])
const command = {
  resume: z.json().optional(),
  update: z.record(z.string(), z.json()).optional(),
  goto: z.union([goto, z.array(goto)]).optional(),
}
/** What an update writes as `asNode`: `values`, or a Command as `command`. */
const update = z.object({
  values: z.json().nullable().optional(),
  command: z.object(command).optional(),
  asNode: z.string().optional(),
})

/** A resume addressed to one pending interrupt: the `index`-th of `node`'s tasks' interrupts. */
const answer = z.object({
  node: z.string(),
  index: z.number().int().nonnegative().optional(),
  value: z.json(),
})
const resume = z
  .object({
    op: z.literal('resume'),
    value: z.json().optional(),
    answers: z.array(answer).min(1).optional(),
    ...common,
  })
  .refine((o) => 'value' in o !== 'answers' in o, {
    message: 'a resume gives exactly one of `value` (for what is pending) and `answers` (one each)',
  })

const OpSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('invoke'), input: z.json().nullable(), ...common }),
  resume,
  z.object({ op: z.literal('command'), ...command, ...common }),
  z.object({ op: z.literal('update'), ...update.shape, ...common }),
  z.object({
    op: z.literal('bulkUpdate'),
    supersteps: z.array(z.object({ updates: z.array(update) })),
    ...common,
  }),
])

/** Validates an ops document (a JSON list of session operations). */
export function parseSessionOps(doc: unknown): { ops: SessionOp[] } | { problem: string } {
  const r = z.array(OpSchema).safeParse(doc)
  if (r.success) return { ops: r.data as SessionOp[] }
  const i = r.error.issues[0]
  return {
    problem: `not a list of operations: at ${i?.path.join('.') || '(top)'}: ${i?.message}${i ? foundNote(doc, i) : ''}`,
  }
}
