/**
 * Python identifiers for the Python emitter: every node, router, reducer and local variable
 * gets a safe, readable, unique name that is no keyword and shadows no builtin or module
 * name the emitted code uses. Names are ASCII only: Python normalises non-ASCII identifiers
 * (NFKC), so two different ids could otherwise become one name.
 */

/** Python's keywords and soft keywords. */
export const PY_KEYWORDS: ReadonlySet<string> = new Set(
  (
    'False None True and as assert async await break class continue def del elif else except ' +
    'finally for from global if import in is lambda nonlocal not or pass raise return try ' +
    'while with yield match case type _'
  ).split(' '),
)

/** Python's builtins (3.8 to 3.13), which a module-level or local name would shadow. */
export const PY_BUILTINS: ReadonlySet<string> = new Set(
  (
    'abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr ' +
    'classmethod compile complex copyright credits delattr dict dir divmod enumerate eval ' +
    'exec exit filter float format frozenset getattr globals hasattr hash help hex id input ' +
    'int isinstance issubclass iter len license list locals map max memoryview min next ' +
    'object oct open ord pow print property quit range repr reversed round set setattr slice ' +
    'sorted staticmethod str sum super tuple vars zip Ellipsis NotImplemented ' +
    'BaseException BaseExceptionGroup Exception ExceptionGroup ArithmeticError AssertionError ' +
    'AttributeError BufferError EOFError FloatingPointError GeneratorExit ImportError ' +
    'ModuleNotFoundError IndexError KeyError KeyboardInterrupt LookupError MemoryError ' +
    'NameError NotImplementedError OSError OverflowError RecursionError ReferenceError ' +
    'RuntimeError StopAsyncIteration StopIteration SyntaxError IndentationError TabError ' +
    'SystemError SystemExit TypeError UnboundLocalError UnicodeError UnicodeDecodeError ' +
    'UnicodeEncodeError UnicodeTranslateError ValueError ZeroDivisionError EnvironmentError ' +
    'IOError Warning UserWarning DeprecationWarning RuntimeWarning'
  ).split(' '),
)

/** Names the emitted module binds itself (imports, the schema, the builder, the graph). */
export const PY_MODULE_NAMES: ReadonlySet<string> = new Set(
  (
    'copy json Annotated Any TypedDict RemoveMessage EphemeralValue Topic InMemorySaver ' +
    'END START StateGraph add_messages Command Send interrupt State builder graph state ' +
    'uuid AIMessage convert_to_messages tool ToolNode tools_condition ChatOpenAI _play_scripted ' +
    'functools _tool_output _tool_error sleep reduce sys local_graph _run_once CONFIGURABLE'
  ).split(' '),
)

const ASCII_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * Whether `name` can be a class attribute of a `TypedDict` and stay the same key: an ASCII
 * identifier, no keyword, and no `__x` (which a class body would mangle to `_State__x`).
 */
export function isPlainFieldName(name: string): boolean {
  return ASCII_IDENTIFIER.test(name) && !PY_KEYWORDS.has(name) && !name.startsWith('__')
}

/** `raw` with every character that cannot be in an ASCII identifier replaced by `_`. */
function sanitize(raw: string): string {
  let out = ''
  for (const ch of raw) out += /^[A-Za-z0-9_]$/.test(ch) ? ch : '_'
  return out
}

/**
 * Hands out unique Python identifiers. `take(raw, prefix)` makes `raw` an identifier
 * (characters outside `[A-Za-z0-9_]` become `_`; `prefix` is put in front when the result
 * is empty, starts with a digit or an underscore, or when `always` is set), appends `_` to a
 * keyword or builtin, and numbers it (`_2`, `_3`, …) when taken. Deterministic: the same
 * sequence of requests gives the same names.
 */
export class PyNamer {
  private readonly used = new Set<string>()

  constructor(private readonly reserved: Iterable<string> = []) {
    for (const r of reserved) this.used.add(r)
  }

  /** A new namer that avoids this one's names too (for locals inside a function). */
  child(): PyNamer {
    return new PyNamer(this.used)
  }

  take(raw: string, prefix: string, always = false): string {
    let base = sanitize(raw)
    if (always || base === '' || /^[0-9_]/.test(base)) base = `${prefix}_${base}`.replace(/_+$/, '')
    if (base === prefix) base = `${prefix}_`
    if (PY_KEYWORDS.has(base) || PY_BUILTINS.has(base) || PY_MODULE_NAMES.has(base)) base += '_'
    let name = base
    for (let n = 2; this.used.has(name); n++) name = `${base}_${n}`
    this.used.add(name)
    return name
  }
}
