/** Exhaustiveness check for closed unions: `default: assertNever(x)`. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`)
}
