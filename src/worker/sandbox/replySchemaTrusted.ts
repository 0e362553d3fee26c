import type { SandboxReply } from './sandboxProtocol'

/**
 * replySchema.ts as the sandbox's loop program has it (vite.config.ts's sandboxLoopPlugin
 * puts this module in its place): there the replies come from sandboxMain in the same realm
 * as the user's code, so a check would guard nothing; what that program posts is checked by
 * the worker (remoteRun.ts). Keeps zod out of the program every run's sandbox evaluates.
 */
export const sandboxReplySchema = {
  safeParse: (data: unknown) =>
    ({ success: true, data: data as SandboxReply }) as
      | { success: true; data: SandboxReply }
      | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
}
