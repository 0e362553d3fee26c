import { validate, type Schema } from '@cfworker/json-schema'

/** One way a value fails its schema, as `@cfworker/json-schema` reports it. */
export interface JsonSchemaError {
  /** JSON pointer of the failing keyword in the schema, e.g. `#/required`. */
  keywordLocation: string
  /** JSON pointer of the failing part of the value, e.g. `#/a`. */
  instanceLocation: string
  keyword: string
  error: string
}

export interface JsonSchemaOutcome {
  valid: boolean
  errors: JsonSchemaError[]
}

/**
 * Validates `value` against a JSON schema exactly as LangChain's `tool()` does for a JSON
 * schema: `@cfworker/json-schema`'s `validate` with its default draft (2019-09). The schema
 * is cloned first, because the library marks the schema objects it walks. Throws what the
 * library throws, e.g. for an `undefined` value (`Instances of "undefined" type are not
 * supported.`).
 */
export function validateJson(value: unknown, schema: Record<string, unknown>): JsonSchemaOutcome {
  const { valid, errors } = validate(value, structuredClone(schema) as Schema)
  return { valid, errors }
}
