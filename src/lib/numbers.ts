/** A finite number above zero (a timeout, a limit): not NaN, not Infinity, not a string. */
export function isPositiveFinite(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0
}
