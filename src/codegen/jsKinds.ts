/**
 * What the JavaScript-to-Python translator knows about a value: the set of kinds it may
 * have at run time, as bits. A construct is translated only when JavaScript and Python agree
 * on every kind the value may have (the truthiness of `[]`, `'a' + 1`, `1 == true`, …).
 *
 * The value model: JSON values map to Python's (`null` → `None`, arrays → `list`, objects →
 * `dict`); JavaScript numbers that are integers map to `int` (INT) and others to `float`
 * (FLOAT); `undefined` also becomes `None`, so a value that may be `undefined` (UNDEF) is
 * translated only where `null` and `undefined` behave alike. OPAQUE is anything else (a Send,
 * a Command, a LangChain message object in Python).
 */
export const UNDEF = 1
export const NULL = 2
export const BOOL = 4
/** An integer small enough that no sum of a few stays out of JavaScript's exact range. */
export const INT = 8
export const FLOAT = 16
export const STR = 32
export const LIST = 64
export const DICT = 128
export const OPAQUE = 256

export const NUM = INT | FLOAT
export const JSON_KINDS = NULL | BOOL | INT | FLOAT | STR | LIST | DICT
export const ANY = JSON_KINDS | UNDEF | OPAQUE

/**
 * Kinds whose truthiness JavaScript and Python agree on: `[]` and `{}` are truthy in
 * JavaScript and falsy in Python; NaN (a FLOAT) is falsy in JavaScript and truthy in Python.
 */
export const SAME_TRUTHINESS = UNDEF | NULL | BOOL | INT | STR

/** Whether every kind in `kinds` is one of `allowed` (and there is at least one). */
export function only(kinds: number, allowed: number): boolean {
  return kinds !== 0 && (kinds & ~allowed) === 0
}

/** The kinds as words, for the reason a translation gives up. */
export function describeKinds(kinds: number): string {
  if ((kinds & JSON_KINDS) === JSON_KINDS)
    return kinds & UNDEF ? 'unknown type' : 'unknown type (but not undefined)'
  const names: [number, string][] = [
    [UNDEF, 'undefined'],
    [NULL, 'null'],
    [BOOL, 'boolean'],
    [INT, 'integer'],
    [FLOAT, 'number'],
    [STR, 'string'],
    [LIST, 'array'],
    [DICT, 'object'],
    [OPAQUE, 'other object'],
  ]
  return names
    .filter(([bit]) => kinds & bit)
    .map(([, name]) => name)
    .join(' or ')
}
