import { Fragment } from 'react'
import { BidiText } from '../Name'
import { JsonValue } from './JsonValue'

interface ErrorLike {
  name: string
  message: string
  stack?: string
}

/** What the sandbox records of an Error (see worker/sandbox/logValue.ts). */
function isErrorLike(v: unknown): v is ErrorLike {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const o = v as Record<string, unknown>
  return (
    typeof o.name === 'string' &&
    typeof o.message === 'string' &&
    typeof o.stack === 'string' &&
    /Error|Exception/.test(o.name)
  )
}

/**
 * The arguments of one `console.*` call, as a console shows them: strings as text, an Error
 * as its name and message (the stack on demand), anything else as an inspectable value
 * (objects by their fields, conversations as messages).
 */
export function LogArgs({ args }: { args: readonly unknown[] }) {
  return (
    <span className="log-args">
      {args.map((a, i) => (
        // Spaces between the arguments, as a console joins them (also in the copied text).
        <Fragment key={i}>
          {i > 0 && ' '}
          <LogArg value={a} />
        </Fragment>
      ))}
    </span>
  )
}

function LogArg({ value }: { value: unknown }) {
  if (typeof value === 'string')
    return (
      <span className="log-text">
        <BidiText>{value}</BidiText>
      </span>
    )
  if (!isErrorLike(value)) return <JsonValue value={value} />
  const { name, message, stack, ...rest } = value as ErrorLike & Record<string, unknown>
  return (
    <span className="log-error">
      <BidiText>{`${name}: ${message}`}</BidiText>
      {Object.keys(rest).length > 0 && (
        <>
          {' '}
          <JsonValue value={rest} />
        </>
      )}
      {stack && (
        <details>
          <summary>stack</summary>
          <pre>{stack}</pre>
        </details>
      )}
    </span>
  )
}
