/**
 * The Python helpers an emitted module defines: Superstep's named reducers with their exact
 * semantics (`src/core/reducers/named.ts`), and `_Default`, which gives a reducer field its
 * default. Python's `operator.add` is not used for `add`: JavaScript's `+` also joins a
 * number to a string, turns `null` into 0 and lists into text, where Python raises or
 * concatenates lists.
 */

export type PyHelper = '_append' | '_add' | '_union' | '_merge' | '_Default' | '_Typed' | JsHelper

/**
 * The helpers translated node code calls: exact JavaScript semantics for JSON values
 * (`_js_text`, `_js_string`, `_js_truthy`, `_js_join`) and guards (`_js_number`, `_js_len`,
 * `_js_get`, `_js_list`), which return their value unchanged where JavaScript and Python agree
 * on it and otherwise raise a TypeError naming the function and what JavaScript would do.
 */
export type JsHelper =
  | '_MISSING'
  | '_js_text'
  | '_js_string'
  | '_js_truthy'
  | '_js_number'
  | '_js_len'
  | '_js_get'
  | '_js_list'
  | '_js_join'
  | '_js_json'
  | '_js_at'
  | '_js_message'
  | '_js_messages'
  | '_js_keys'
  | '_js_sort'

interface HelperSource {
  needs: string[]
  imports: string[]
  lines: string[]
}

const AS_LIST = [
  'def _as_list(value: Any) -> list:',
  '    return value if isinstance(value, list) else [value]',
]

const JS_TEXT = [
  'def _js_primitive(value: Any) -> Any:',
  '    # JavaScript turns an array into its items joined by commas, an object into this.',
  '    if isinstance(value, list):',
  '        return ",".join("" if item is None else _js_text(item) for item in value)',
  '    if isinstance(value, dict):',
  '        return "[object Object]"',
  '    return value',
  '',
  '',
  'def _js_text(value: Any) -> str:',
  '    """JavaScript\'s String(value), for JSON values."""',
  '    if value is None:',
  '        return "null"',
  '    if isinstance(value, bool):',
  '        return "true" if value else "false"',
  '    if isinstance(value, (int, float)):',
  '        return _js_number_text(value)',
  '    if isinstance(value, str):',
  '        return value',
  '    if isinstance(value, (list, dict)):',
  '        return _js_primitive(value)',
  '    raise TypeError(f"cannot write a {type(value).__name__} as JavaScript text")',
  '',
  '',
  'def _js_number_text(number: Any) -> str:',
  '    """JavaScript\'s text of a number: shortest digits, `1e+21` from 1e21 on, no `.0`."""',
  '    if isinstance(number, int) and abs(number) <= 2**53:',
  '        return str(number)',
  '    x = float(number)',
  '    if x != x:',
  '        return "NaN"',
  '    if x in (float("inf"), float("-inf")):',
  '        return "Infinity" if x > 0 else "-Infinity"',
  '    if x == 0:',
  '        return "0"',
  '    mantissa, _, exponent = repr(abs(x)).partition("e")',
  '    whole, _, fraction = mantissa.partition(".")',
  '    raw = whole + fraction',
  '    digits = raw.lstrip("0")',
  '    # the value is 0.<digits> times 10 ** point',
  '    point = len(whole) + int(exponent or 0) - (len(raw) - len(digits))',
  '    digits = digits.rstrip("0")',
  '    k = len(digits)',
  '    if k <= point <= 21:',
  '        text = digits + "0" * (point - k)',
  '    elif 0 < point <= 21:',
  '        text = digits[:point] + "." + digits[point:]',
  '    elif -6 < point <= 0:',
  '        text = "0." + "0" * -point + digits',
  '    else:',
  '        e = point - 1',
  '        head = digits[0] + ("." + digits[1:] if k > 1 else "")',
  '        text = head + "e" + ("+" if e >= 0 else "-") + str(abs(e))',
  '    return ("-" if x < 0 else "") + text',
]

const MISSING = [
  'class _Missing:',
  '    """A key that is not there: JavaScript\'s undefined, where None is null."""',
  '',
  '    def __repr__(self) -> str:',
  '        return "undefined"',
  '',
  '',
  '_MISSING = _Missing()',
]

const JS_STRING = [
  'def _js_string(value: Any) -> str:',
  '    """JavaScript\'s String(value), for JSON values and _MISSING (undefined)."""',
  '    return "undefined" if value is _MISSING else _js_text(value)',
]

const JS_TRUTHY = [
  'def _js_truthy(value: Any) -> bool:',
  '    """JavaScript\'s truthiness: [] and {} are true; 0, NaN, "", None, False are false."""',
  '    if value is None or value is False:',
  '        return False',
  '    if isinstance(value, (int, float)) and not isinstance(value, bool):',
  '        return value == value and value != 0',
  '    return not (isinstance(value, str) and value == "")',
]

const JS_NUMBER = [
  'def _js_number(value: Any, where: str) -> Any:',
  '    """`value` when it is a number JavaScript and Python compute alike (a float, or an int',
  '    within 2**31, whose sums stay exact in both); else TypeError, where JavaScript would',
  '    convert it (`"2" < 3`, `null + 1`, `"a" + 1`) and go on."""',
  '    if isinstance(value, float) or (',
  '        isinstance(value, int) and not isinstance(value, bool) and abs(value) <= 2**31',
  '    ):',
  '        return value',
  '    raise TypeError(',
  '        f"{where}: expected a number, got {value!r:.60}; JavaScript would convert it"',
  '        " (or round a large integer) where this Python does not"',
  '    )',
]

const JS_LEN = [
  'def _js_len(value: Any, where: str) -> int:',
  '    """JavaScript\'s `.length`: of a list, or of a string in UTF-16 code units; else',
  '    TypeError (JavaScript would read undefined, or throw on null)."""',
  '    if isinstance(value, list):',
  '        return len(value)',
  '    if isinstance(value, str):',
  '        return len(value.encode("utf-16-le", "surrogatepass")) // 2',
  '    raise TypeError(',
  '        f"{where}: .length of {value!r:.60}, neither a list nor a string;"',
  '        " JavaScript would read undefined or throw"',
  '    )',
]

const JS_GET = [
  'def _js_get(value: Any, key: str, where: str, missing: Any = None) -> Any:',
  '    """`value[key]` of a dict, `missing` when the key is not there (undefined in',
  '    JavaScript); else TypeError (JavaScript would read undefined, or throw on null)."""',
  '    if isinstance(value, dict):',
  '        return value.get(key, missing)',
  '    raise TypeError(',
  '        f"{where}: .{key} of {value!r:.60}, which is not a dict;"',
  '        " JavaScript would read undefined or throw"',
  '    )',
]

const JS_LIST = [
  'def _js_list(value: Any, where: str) -> list:',
  '    """`value` when it is a list; else TypeError (JavaScript would call the method of',
  '    another type, or throw)."""',
  '    if isinstance(value, list):',
  '        return value',
  '    raise TypeError(f"{where}: expected a list, got {value!r:.60}; JavaScript differs here")',
]

const JS_KEYS = [
  'def _js_keys(value: dict) -> list:',
  '    """JavaScript\'s Object.keys(value): index keys first, by number, then the others in',
  '    insertion order."""',
  '    index = sorted((k for k in value if _js_index_key(k)), key=int)',
  '    return index + [k for k in value if not _js_index_key(k)]',
]

const JS_SORT = [
  'def _js_sort(items: list, where: str) -> list:',
  '    """JavaScript\'s items.sort() of strings: by UTF-16 code units, not code points; TypeError',
  '    for anything else (JavaScript would compare it as text)."""',
  '    if not all(isinstance(item, str) for item in items):',
  '        raise TypeError(f"{where}: sorting {items!r:.60}; JavaScript would compare them as text")',
  '    return sorted(items, key=lambda item: item.encode("utf-16-be", "surrogatepass"))',
]

const JS_AT = [
  'def _js_at(items: list, index: Any, where: str, from_end: bool = False) -> Any:',
  '    """`items[index]` of a list, or `items.at(index)` (from_end: a negative index counts from',
  '    the end, a fraction is cut off): the item, or None (undefined) past either end or, for',
  '    `[]`, at an index that is no whole number; TypeError for an index that is no number."""',
  '    if isinstance(index, bool) or not isinstance(index, (int, float)):',
  '        raise TypeError(f"{where}: an index of {index!r:.60}; JavaScript would read it as a key")',
  '    if index in (float("inf"), float("-inf")):',
  '        return None',
  '    if index != index:  # NaN',
  '        if not from_end:',
  '            return None',
  '        index = 0',
  '    if not from_end and index != int(index):',
  '        return None',
  '    i = int(index)',
  '    if from_end and i < 0:',
  '        i += len(items)',
  '    return items[i] if 0 <= i < len(items) else None',
]

const JS_MESSAGE = [
  'def _js_message(message: Any) -> Any:',
  '    """A LangChain message as Superstep\'s JSON has it (what JavaScript code reads): type,',
  '    content, id, name, tool_calls (only when there are any), tool_call_id, status."""',
  '    if message is None or isinstance(message, dict):',
  '        return message',
  '    out = {"type": message.type, "content": message.content}',
  '    if message.id is not None:',
  '        out["id"] = message.id',
  '    if getattr(message, "name", None) is not None:',
  '        out["name"] = message.name',
  '    calls = getattr(message, "tool_calls", None)',
  '    if calls:',
  '        out["tool_calls"] = [',
  '            {"name": c["name"], "args": c["args"], **({"id": c["id"]} if c.get("id") else {})}',
  '            for c in calls',
  '        ]',
  '    if message.type == "tool":',
  '        out["tool_call_id"] = message.tool_call_id',
  '        if message.status in ("success", "error"):',
  '            out["status"] = message.status',
  '    return out',
]

const JS_MESSAGES = [
  'def _js_messages(messages: Any) -> Any:',
  '    """The items of a messages field as JSON, as _js_message."""',
  '    return [_js_message(m) for m in messages] if isinstance(messages, list) else messages',
]

const JS_JOIN = [
  'def _js_join(items: list, separator: str) -> str:',
  '    """JavaScript\'s items.join(separator): null items are empty, others String(item)."""',
  '    return separator.join("" if item is None else _js_text(item) for item in items)',
]

const JSON_KEY = [
  'def _json_canonical(value: Any) -> Any:',
  '    # What JSON.stringify sees: numbers are doubles (1 and 1.0 are one), NaN is null.',
  '    if value is None or isinstance(value, (bool, str)):',
  '        return value',
  '    if isinstance(value, (int, float)):',
  '        x = float(value)',
  '        if x != x or x in (float("inf"), float("-inf")):',
  '            return None',
  '        return int(x) if x.is_integer() else x',
  '    if isinstance(value, list):',
  '        return [_json_canonical(item) for item in value]',
  '    if isinstance(value, dict):',
  '        return {key: _json_canonical(item) for key, item in value.items()}',
  '    raise TypeError(f"union: a {type(value).__name__} is not a JSON value")',
  '',
  '',
  'def _union_key(value: Any) -> str:',
  "    # Superstep's key: JSON with sorted keys; a primitive also keeps its JavaScript type.",
  '    text = json.dumps(_json_canonical(value), sort_keys=True)',
  '    if isinstance(value, (list, dict)):',
  '        return text',
  '    if value is None:',
  '        return "object:" + text',
  '    if isinstance(value, bool):',
  '        return "boolean:" + text',
  '    return ("string:" if isinstance(value, str) else "number:") + text',
]

const JS_INDEX_KEY = [
  'def _js_index_key(key: str) -> bool:',
  '    # An array index ("0", "7", not "07"): JavaScript lists such keys first, by number.',
  '    return key.isascii() and key.isdigit() and (key == "0" or key[0] != "0") and int(key) < 2**32 - 1',
]

const JS_JSON = [
  'def _js_json(value: Any) -> Any:',
  '    """JavaScript\'s JSON.stringify(value), for JSON values: compact, index keys first as',
  "    JavaScript orders an object's keys, NaN and Infinity as null, lone surrogates escaped;",
  '    None (undefined) for _MISSING."""',
  '    if value is _MISSING:',
  '        return None',
  '    if value is None:',
  '        return "null"',
  '    if isinstance(value, bool):',
  '        return "true" if value else "false"',
  '    if isinstance(value, (int, float)):',
  '        text = _js_number_text(value)',
  '        return "null" if text in ("NaN", "Infinity", "-Infinity") else text',
  '    if isinstance(value, str):',
  '        text = json.dumps(value, ensure_ascii=False)',
  '        return re.sub("[\\ud800-\\udfff]", lambda m: "\\\\u%04x" % ord(m.group()), text)',
  '    if isinstance(value, list):',
  '        return "[" + ",".join("null" if v is _MISSING else _js_json(v) for v in value) + "]"',
  '    if isinstance(value, dict):',
  '        keys = sorted((k for k in value if _js_index_key(k)), key=int)',
  '        keys += [k for k in value if not _js_index_key(k)]',
  '        items = [_js_json(k) + ":" + _js_json(value[k]) for k in keys if value[k] is not _MISSING]',
  '        return "{" + ",".join(items) + "}"',
  '    raise TypeError(f"cannot write a {type(value).__name__} as JSON as JavaScript does")',
]

const SOURCES: Record<PyHelper | '_as_list' | '_union_key' | '_js_index_key', HelperSource> = {
  _as_list: { needs: [], imports: [], lines: AS_LIST },
  _MISSING: { needs: [], imports: [], lines: MISSING },
  _js_text: { needs: [], imports: [], lines: JS_TEXT },
  _js_string: { needs: ['_MISSING', '_js_text'], imports: [], lines: JS_STRING },
  _js_truthy: { needs: [], imports: [], lines: JS_TRUTHY },
  _js_number: { needs: [], imports: [], lines: JS_NUMBER },
  _js_len: { needs: [], imports: [], lines: JS_LEN },
  _js_get: { needs: [], imports: [], lines: JS_GET },
  _js_list: { needs: [], imports: [], lines: JS_LIST },
  _js_join: { needs: ['_js_text'], imports: [], lines: JS_JOIN },
  _js_index_key: { needs: [], imports: [], lines: JS_INDEX_KEY },
  _js_json: {
    needs: ['_MISSING', '_js_text', '_js_index_key'],
    imports: ['json', 're'],
    lines: JS_JSON,
  },
  _js_keys: { needs: ['_js_index_key'], imports: [], lines: JS_KEYS },
  _js_sort: { needs: [], imports: [], lines: JS_SORT },
  _js_at: { needs: [], imports: [], lines: JS_AT },
  _js_message: { needs: [], imports: [], lines: JS_MESSAGE },
  _js_messages: { needs: ['_js_message'], imports: [], lines: JS_MESSAGES },
  _union_key: { needs: [], imports: ['json'], lines: JSON_KEY },
  _append: {
    needs: ['_as_list'],
    imports: [],
    lines: [
      'def _append(current: Any, update: Any) -> list:',
      '    """Superstep\'s `append`: list concatenation; a non-list counts as a one-item list."""',
      '    return _as_list(current) + _as_list(update)',
    ],
  },
  _add: {
    needs: ['_js_text'],
    imports: [],
    lines: [
      'def _add(current: Any, update: Any) -> Any:',
      '    """Superstep\'s `add`, which is JavaScript\'s `a + b`: numbers add (null counts as 0,',
      '    true as 1); when either side is text (a list or dict becomes text first, as in',
      '    JavaScript), both are joined as text: `_add("n", 1) == "n1"`."""',
      '    a, b = _js_primitive(current), _js_primitive(update)',
      '    if isinstance(a, str) or isinstance(b, str):',
      '        return _js_text(a) + _js_text(b)',
      '    if not all(x is None or isinstance(x, (bool, int, float)) for x in (a, b)):',
      '        raise TypeError(f"add: cannot add {a!r} and {b!r} as JavaScript does")',
      '    total = (a or 0) + (b or 0)',
      '    # JavaScript numbers are doubles: past 2**53 a sum rounds.',
      '    return float(total) if isinstance(total, int) and abs(total) > 2**53 else total',
    ],
  },
  _union: {
    needs: ['_as_list', '_union_key'],
    imports: [],
    lines: [
      'def _union(current: Any, update: Any) -> list:',
      '    """Superstep\'s `union`: the items of both lists without duplicates (JSON equality),',
      '    in first-seen order; a non-list counts as a one-item list."""',
      '    seen = set()',
      '    out = []',
      '    for item in _as_list(current) + _as_list(update):',
      '        key = _union_key(item)',
      '        if key not in seen:',
      '            seen.add(key)',
      '            out.append(item)',
      '    return out',
    ],
  },
  _merge: {
    needs: [],
    imports: [],
    lines: [
      'def _merge(current: Any, update: Any) -> Any:',
      '    """Superstep\'s `merge`: a shallow dict merge, later keys win; a non-dict replaces."""',
      '    if not isinstance(update, dict):',
      '        return update',
      '    return {**current, **update} if isinstance(current, dict) else dict(update)',
    ],
  },
  _Default: {
    needs: [],
    imports: ['copy'],
    lines: [
      'class _Default:',
      '    """The default of a reducer field. LangGraph starts a reducer channel from `typ()`',
      '    (`list()` is `[]`, `int()` is 0), so a field whose default is something else gets',
      '    this as its type: calling it gives a fresh copy of the default."""',
      '',
      '    def __init__(self, value: Any) -> None:',
      '        self.value = value',
      '',
      '    def __call__(self) -> Any:',
      '        return copy.deepcopy(self.value)',
      '',
      '    def __repr__(self) -> str:',
      '        return f"_Default({self.value!r})"',
      '',
      '    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:',
      "        # For the input schema LangGraph's server derives from State: any value.",
      '        return {"type": "any"}',
    ],
  },
  _Typed: {
    needs: [],
    imports: ['copy'],
    lines: [
      'class _Typed:',
      '    """The declared type of a reducer field that LangGraph must not start from `typ()`',
      '    (`list[str]()` is `[]`, `float()` is 0.0): calling it gives a fresh copy of the',
      '    default, or raises when there is none, so the field starts empty and keeps its first',
      '    write as is. The input schema LangGraph\'s server derives from State is the type\'s."""',
      '',
      '    def __init__(self, typ: Any, *default: Any) -> None:',
      '        self.typ = typ',
      '        self.default = default',
      '',
      '    def __call__(self) -> Any:',
      '        if not self.default:',
      '            raise TypeError("no default")',
      '        return copy.deepcopy(self.default[0])',
      '',
      '    def __repr__(self) -> str:',
      '        defaults = "".join(f", {d!r}" for d in self.default)',
      '        return f"_Typed({self.typ!r}{defaults})"',
      '',
      '    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:',
      '        return handler.generate_schema(self.typ)',
    ],
  },
}

/**
 * The source of `helpers` and of what they call, in a fixed order, each a block of lines,
 * and the modules they import.
 */
export function preludeFor(helpers: ReadonlySet<PyHelper>): {
  blocks: string[]
  imports: Set<string>
} {
  const wanted = new Set<string>()
  const want = (name: string) => {
    if (wanted.has(name)) return
    wanted.add(name)
    for (const n of SOURCES[name as keyof typeof SOURCES].needs) want(n)
  }
  for (const h of helpers) want(h)
  const order = [
    '_as_list',
    '_MISSING',
    '_js_text',
    '_js_string',
    '_js_truthy',
    '_js_number',
    '_js_len',
    '_js_get',
    '_js_list',
    '_js_join',
    '_js_index_key',
    '_js_json',
    '_js_keys',
    '_js_sort',
    '_js_at',
    '_js_message',
    '_js_messages',
    '_union_key',
    '_append',
    '_add',
    '_union',
    '_merge',
    '_Default',
    '_Typed',
  ] as const
  const blocks: string[] = []
  const imports = new Set<string>()
  for (const name of order) {
    if (!wanted.has(name)) continue
    blocks.push(SOURCES[name].lines.join('\n'))
    for (const i of SOURCES[name].imports) imports.add(i)
  }
  return { blocks, imports }
}
