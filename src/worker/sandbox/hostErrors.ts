import type { RemoteErrorData, TaskLog } from '../../core/compile/host'
import { errorMessage } from '../../core/errorJson'
import type { CodeKind } from './sandboxProtocol'

/** Which piece of code a call ran, for callbacks and messages. */
export interface SandboxCallRef {
  kind: CodeKind
  /** Node id for node and router code, field name for reducers. */
  owner: string
}

/** An error that came out of the sandbox: RemoteErrorData as a real Error. */
export class SandboxError extends Error implements RemoteErrorData {
  line?: number
  column?: number
  logs?: TaskLog[]
  constructor(data: RemoteErrorData) {
    super(data.message)
    this.name = data.name
    if (data.line !== undefined) this.line = data.line
    if (data.column !== undefined) this.column = data.column
    if (data.logs !== undefined) this.logs = data.logs
  }
}

/** `node \`x\``, `the router of \`x\``, `the reducer of field \`x\``. */
export function describeRef(ref: SandboxCallRef): string {
  if (ref.kind === 'node') return `node \`${ref.owner}\``
  if (ref.kind === 'router') return `the router of \`${ref.owner}\``
  return `the reducer of field \`${ref.owner}\``
}

/** `s` with its first letter upper case. */
export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** 5000 as `5 s`, 1500 as `1.5 s`. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`
}

/** The message of whatever was thrown. */
export const messageOf: (e: unknown) => string = errorMessage

/** A call lost with the sandbox it was sent to (hung, replaced or closed). */
export function restarted(ref: SandboxCallRef, why: string): Error {
  const error = new Error(`${capitalize(describeRef(ref))} did not finish: ${why}`)
  error.name = 'SandboxRestartedError'
  return error
}

/** A reply that is not what the protocol allows for its call. */
export function protocolError(ref: SandboxCallRef, what: string): Error {
  const error = new Error(`The sandbox sent a malformed reply for ${describeRef(ref)}: ${what}.`)
  error.name = 'SandboxProtocolError'
  return error
}
