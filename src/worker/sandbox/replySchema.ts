import { z } from 'zod'
import type { SandboxReply } from './sandboxProtocol'

const taskLog = z.object({
  level: z.enum(['log', 'info', 'warn', 'error', 'debug']),
  args: z.array(z.unknown()),
  at: z.number(),
})
const id = z.number().int().nonnegative()
const position = z.number().int().positive().optional()
const errorData = z.object({
  name: z.string().min(1).max(200),
  message: z.string(),
  line: position,
  column: position,
  logs: z.array(taskLog).optional(),
})
const routeReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown(), logs: z.array(taskLog) }),
  z.object({ ok: z.literal(false), error: errorData }),
])

/** A reply from the sandbox, as the host accepts it (anything else is a protocol error). */
export const sandboxReplySchema = z.discriminatedUnion('kind', [
  z.object({
    id,
    kind: z.literal('ok'),
    output: z.unknown(),
    resume: z.array(z.unknown()).nullable(),
    logs: z.array(taskLog),
    custom: z.array(z.unknown()).optional(),
    routes: z.array(routeReply).optional(),
  }),
  z.object({
    id,
    kind: z.literal('interrupt'),
    value: z.unknown(),
    resume: z.array(z.unknown()).nullable(),
    logs: z.array(taskLog),
    custom: z.array(z.unknown()).optional(),
  }),
  z.object({ id, kind: z.literal('value'), value: z.unknown(), logs: z.array(taskLog) }),
  z.object({ id, kind: z.literal('error'), error: errorData }),
]) satisfies z.ZodType<SandboxReply>
