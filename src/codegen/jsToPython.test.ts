import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import type { FieldSpec } from '../core/graph/schema'
import {
  findSendTargets,
  translateFunction,
  type CodeKind,
  type TranslateOptions,
} from './jsToPython'
import { preludeFor, type JsHelper } from './pyPrelude'

/** The schema the snippets run against: each kind of field the translator reads differently. */
const FIELDS: FieldSpec[] = [
  { name: 'log', reducer: 'append', default: [] },
  { name: 'tags', reducer: 'union', default: [] },
  { name: 'count', reducer: 'add', default: 0 },
  { name: 'x' },
  { name: 'msgs', reducer: 'add_messages', default: [] },
  { name: 'meta', reducer: 'merge', default: {} },
  { name: 'events', channel: 'topic' },
]

type Case = [code: string, python: string[], options?: Partial<TranslateOptions>]

function translate(code: string, options: Partial<TranslateOptions> = {}) {
  return translateFunction(code, { kind: 'node', fields: FIELDS, where: 'node f', ...options })
}

/** JavaScript → the Python function body it becomes. */
const TRANSLATED: Case[] = [
  ["(state) => ({ count: 1, log: ['inc'] })", ['return {"count": 1, "log": ["inc"]}']],
  ['(s) => ({ n: s.log.length })', ['return {"n": len(state["log"])}']],
  [
    "(s) => s.log.length > 0 ? { x: 'a' } : { x: 'b' }",
    ['return {"x": "a"} if len(state["log"]) > 0 else {"x": "b"}'],
  ],
  ["(s) => ({ x: 'a' + 'b' + 1 })", ['return {"x": "a" + "b" + str(1)}']],
  ['(s) => ({ x: 1 + 2 + "a" })', ['return {"x": str(1 + 2) + "a"}']],
  [
    '(s) => ({ x: `n=${s.log.length}, t=${"q"}` })',
    ['return {"x": "n=" + str(len(state["log"])) + ", t=" + "q"}'],
  ],
  [
    "(s) => ({ y: s.x === 'a', z: 'a' !== s.x })",
    ['return {"y": state.get("x") == "a", "z": "a" != state.get("x")}'],
  ],
  ['(s) => ({ y: s.count !== null })', ['return {"y": state["count"] is not None}']],
  [
    '(s) => ({ y: s.x == null, z: undefined != s.x })',
    ['return {"y": state.get("x") is None, "z": state.get("x") is not None}'],
  ],
  ['(s) => ({ y: s.x === true })', ['return {"y": state.get("x") is True}']],
  ['(s) => ({ y: s.log.length === 1 })', ['return {"y": len(state["log"]) == 1}']],
  [
    '(s) => ({ y: s.log.length > 0 && s.log.length < 5 || s.tags.length >= 2 })',
    ['return {"y": len(state["log"]) > 0 and len(state["log"]) < 5 or len(state["tags"]) >= 2}'],
  ],
  ['(s) => ({ y: !(s.log.length > 0) })', ['return {"y": not len(state["log"]) > 0}']],
  ['(s) => ({ y: !s.log.length })', ['return {"y": not len(state["log"])}']],
  [
    "(s) => ({ y: s.x ?? 'none' })",
    ['return {"y": state.get("x") if state.get("x") is not None else "none"}'],
  ],
  [
    "(s) => ({ y: s.tags.includes('a'), z: 'abc'.includes('b') })",
    ['return {"y": "a" in state["tags"], "z": "b" in "abc"}'],
  ],
  [
    "(s) => ({ log: s.tags.concat(['z'], 'w', 1) })",
    ['return {"log": state["tags"] + ["z"] + ["w"] + [1]}'],
  ],
  ["(s) => ({ log: [...s.tags, 'z'] })", ['return {"log": [*state["tags"], "z"]}']],
  ['(s) => ({ ...s, x: 1 })', ['return {**state, "x": 1}']],
  [
    "(s) => ({ x: { ...{ a: 1 }, b: [1, 'two', null, true, false] } })",
    ['return {"x": {**{"a": 1}, "b": [1, "two", None, True, False]}}'],
  ],
  [
    '(s) => ({ n: -s.log.length * (2 - 3), m: s.log.length / 2, k: +s.log.length })',
    [
      'return {"n": -len(state["log"]) * (2 - 3), "m": len(state["log"]) / 2, "k": len(state["log"])}',
    ],
  ],
  [
    '(s) => ({ n: Math.max(s.log.length, 3), m: Math.min(1, 2, s.tags.length) })',
    ['return {"n": max(len(state["log"]), 3), "m": min(1, 2, len(state["tags"]))}'],
  ],
  ['((s) => ({}))', ['return {}']],
  ["(s) => ({ x: interrupt('q') })", ['return {"x": interrupt("q")}']],
  ['(s) => ({ x: interrupt({ q: 1 }) === true })', ['return {"x": interrupt({"q": 1}) is True}']],
  [
    "(s) => { const a = interrupt('first'); const b = interrupt('second'); return { log: [a, b] } }",
    ['a = interrupt("first")', 'b = interrupt("second")', 'return {"log": [a, b]}'],
  ],
  [
    "(s) => { if (s.log.length === 0) { return { x: 'empty' } } else if (s.log.length === 1) return { x: 'one' }; else {} return { x: 'many' } }",
    [
      'if len(state["log"]) == 0:',
      '    return {"x": "empty"}',
      'elif len(state["log"]) == 1:',
      '    return {"x": "one"}',
      'else:',
      '    pass',
      'return {"x": "many"}',
    ],
  ],
  ["(s) => { 'use strict'; interrupt('ask'); }", ['interrupt("ask")']],
  ["(s) => { throw new Error('boom') }", ['raise Exception("boom")']],
  [
    "(s) => { if (s.log.length > 2) throw TypeError('too long: ' + s.log.length) }",
    ['if len(state["log"]) > 2:', '    raise TypeError("too long: " + str(len(state["log"])))'],
  ],
  ['(s) => null', ['return None']],
  ['(s) => 0', ['return None']],
  ["(s) => ''", ['return None']],
  ['(s) => false', ['return None']],
  ['(s) => undefined', ['return None']],
  ['(s) => {}', ['return None']],
  ["(s) => 'hello'", ['return "hello"']],
  [
    "(s) => ({ seen: 'answer' in s ? 'yes' : 'no' })",
    ['return {"seen": "yes" if "answer" in state else "no"}'],
  ],
  [
    "(s) => ({ msgs: [{ type: 'ai', content: 'hi', id: 'a1' }, 'hello', { role: 'user', content: 'q' }] })",
    [
      'return {"msgs": [{"type": "ai", "content": "hi", "id": "a1"}, "hello", {"role": "user", "content": "q"}]}',
    ],
  ],
  [
    "(s) => ({ msgs: [{ type: 'remove', id: 'a1' }, { type: 'tool', content: 'found', tool_call_id: 'c1' }] })",
    [
      'return {"msgs": [RemoveMessage(id="a1"), {"type": "tool", "content": "found", "tool_call_id": "c1"}]}',
    ],
  ],
  [
    "(s) => ({ msgs: { type: 'ai', content: '', tool_calls: [{ name: 'lookup', args: { q: 'x' }, id: 'c1' }] } })",
    [
      'return {"msgs": {"type": "ai", "content": "", "tool_calls": [{"name": "lookup", "args": {"q": "x"}, "id": "c1"}]}}',
    ],
  ],
  [
    '({ log, count: c }) => ({ n: log.length })',
    ['log = state["log"]', 'c = state["count"]', 'return {"n": len(log)}'],
  ],
  [
    '(s) => { const len = s.log.length; const None = 1; const state = 2; return { n: len + None + state } }',
    ['len_ = len(state["log"])', 'None_ = 1', 'state_ = 2', 'return {"n": len_ + None_ + state_}'],
  ],
  [
    '(s) => { const a = 1; if (a > 0) { const a = 2; return { n: a } } return { n: a } }',
    ['a = 1', 'if a > 0:', '    a_2 = 2', '    return {"n": a_2}', 'return {"n": a}'],
  ],
  [
    '(s) => ({ "we\\"ird\\nkey": \'it\\\'s "q" \\\\ \\u2028 😀 \\ud800 é\' })',
    ['return {"we\\"ird\\nkey": "it\'s \\"q\\" \\\\ \\u2028 😀 \\ud800 é"}'],
  ],
  ["async (s) => ({ x: 'a' })", ['return {"x": "a"}']],
  [
    '(s) => ({ tags: [s.log[0], s.log[s.log.length - 1], s.log.at(-1), s.log.at(1.5), s.log[-1], s.log[0.5]] })',
    [
      'return {"tags": [_js_at(state["log"], 0, "node f"), _js_at(state["log"], len(state["log"]) - 1, "node f"), _js_at(state["log"], -1, "node f", True), _js_at(state["log"], 1.5, "node f", True), _js_at(state["log"], -1, "node f"), _js_at(state["log"], 0.5, "node f")]}',
    ],
  ],
  [
    "(s) => { const last = s.msgs[s.msgs.length - 1]; return { x: last && last.type === 'ai' ? 'ai spoke' : 'no' } }",
    [
      'last = _js_message(_js_at(state["msgs"], len(state["msgs"]) - 1, "node f"))',
      'return {"x": "ai spoke" if _js_truthy(last) and _js_get(last, "type", "node f") == "ai" else "no"}',
    ],
  ],
  [
    '(s) => ({ tags: s.msgs.map((m) => m.id), x: JSON.stringify(s.msgs) })',
    [
      'return {"tags": [_js_get(m, "id", "node f") for m in _js_messages(state["msgs"])], "x": _js_json(_js_messages(state["msgs"]))}',
    ],
  ],
  [
    "(s) => ({ x: Object.keys(s).sort().join(','), tags: Object.keys(s), log: ['é', 'z', '😀', '\uffff', 'a'].sort() })",
    [
      'return {"x": _js_join(_js_sort(_js_keys(state), "node f"), ","), "tags": _js_keys(state), "log": _js_sort(["é", "z", "😀", "\uffff", "a"], "node f")}',
    ],
  ],
  [
    "(s) => ({ x: s.log.length > 1 && s.log[1] === 'b' ? 'second is b' : 'no' })",
    [
      'return {"x": "second is b" if len(state["log"]) > 1 and _js_at(state["log"], 1, "node f") == "b" else "no"}',
    ],
  ],
  [
    '(s) => ({ x: JSON.stringify(s.x ?? null) + JSON.stringify(s.log) + JSON.stringify(s) })',
    [
      'return {"x": _js_json(state.get("x") if state.get("x") is not None else None) + _js_json(state["log"]) + _js_json(state)}',
    ],
  ],
  [
    '(s) => ({ tags: [JSON.stringify(s.x)] })',
    ['return {"tags": [_js_json(state.get("x", _MISSING))]}'],
  ],
  [
    "(s) => { const log = 'a local named like the key'; return { x: JSON.stringify(s.log) } }",
    ['log = "a local named like the key"', 'return {"x": _js_json(state["log"])}'],
  ],
  [
    "(s) => s.log.map((item) => new Send('w', { item }))",
    ['return [Send("w", {"item": item}) for item in state["log"]]'],
    { kind: 'router', hasPaths: true },
  ],
  [
    "(s) => ({ count: s.log.filter((t) => t !== 'a').map((t) => t.length).length })",
    [
      'return {"count": len([_js_len(t_2, "node f") for t_2 in [t for t in state["log"] if t != "a"]])}',
    ],
  ],
  [
    '(s) => ({ count: s.log.reduce((n, t) => n + t.length, 0) })',
    [
      'return {"count": reduce(lambda n, t: _js_number(n, "node f") + _js_len(t, "node f"), state["log"], 0)}',
    ],
  ],
  ['(s) => ({ tags: s.log.map((v) => v) })', ['return {"tags": [v_ for v_ in state["log"]]}']],
  [
    '(s) => ({ tags: s.x.filter((v) => v) })',
    ['return {"tags": [v_ for v_ in _js_list(state.get("x"), "node f") if _js_truthy(v_)]}'],
  ],
  [
    "async (s) => { await null; await undefined; await Promise.resolve(); return { x: 'a' } }",
    ['return {"x": "a"}'],
  ],
  [
    "async (s) => { await new Promise((r) => setTimeout(r, 5)); return { log: ['a'] } }",
    ['sleep(0.005)', 'return {"log": ["a"]}'],
  ],
  [
    'async (s) => { await new Promise((done) => setTimeout(done, s.log.length - 1)); return {} }',
    ['sleep(max(len(state["log"]) - 1, 0) / 1000)', 'return {}'],
  ],
  ['function (s) { return { x: 1 } }', ['return {"x": 1}']],
  ["() => ({ x: 'no parameter' })", ['return {"x": "no parameter"}']],
  [
    "(s) => new Command({ update: { log: ['a'] }, goto: 'b' })",
    ['return Command(update={"log": ["a"]}, goto="b")'],
  ],
  [
    '(s) => new Command({ goto: [END, new Send("w", { n: 1 })] })',
    ['return Command(goto=[END, Send("w", {"n": 1})])'],
  ],
  [
    "(s) => new Command({ graph: Command.PARENT, goto: 'b', update: { log: ['up'] } })",
    ['return Command(graph=Command.PARENT, goto="b", update={"log": ["up"]})'],
  ],
  [
    "(s) => [new Command({ update: { log: ['cmd'] } }), { log: ['dict'] }]",
    ['return [Command(update={"log": ["cmd"]}), {"log": ["dict"]}]'],
  ],
  [
    "(s) => ({ events: ['e'], y: s.events === undefined })",
    ['return {"events": ["e"], "y": state.get("events") is None}'],
  ],
  // under guards: exact for JSON values, or a TypeError where JavaScript would differ
  ["(s) => s.x ? { x: 'a' } : {}", ['return {"x": "a"} if _js_truthy(state.get("x")) else {}']],
  ['(s) => ({ y: !s.x })', ['return {"y": not _js_truthy(state.get("x"))}']],
  [
    "(s) => ({ y: s.x && 'a', z: s.meta || 'none' })",
    [
      'return {"y": "a" if _js_truthy(state.get("x")) else state.get("x"), "z": state["meta"] if _js_truthy(state["meta"]) else "none"}',
    ],
  ],
  [
    "(s) => (s.x && s.meta) || !s.tags ? 'yes' : 'no'",
    [
      'return "yes" if _js_truthy(state.get("x")) and _js_truthy(state["meta"]) or not _js_truthy(state["tags"]) else "no"',
    ],
  ],
  ['(s) => { if (s.tags) return {} }', ['if _js_truthy(state["tags"]):', '    return {}']],
  ['(s) => ({ x: s.x + 1 })', ['return {"x": _js_number(state.get("x"), "node f") + 1}']],
  [
    '(s) => ({ n: s.count * 10 - -s.count, m: s.count / 4, k: 2 - s.x })',
    [
      'return {"n": _js_number(state["count"], "node f") * 10 - -_js_number(state["count"], "node f"), "m": _js_number(state["count"], "node f") / 4, "k": 2 - _js_number(state.get("x"), "node f")}',
    ],
  ],
  [
    '(s) => ({ y: s.count >= 2, z: s.x < s.count })',
    [
      'return {"y": _js_number(state["count"], "node f") >= 2, "z": _js_number(state.get("x"), "node f") < _js_number(state["count"], "node f")}',
    ],
  ],
  ["(s) => ({ x: 'a' + s.x })", ['return {"x": "a" + _js_string(state.get("x", _MISSING))}']],
  ["(s) => ({ x: 'n' + s.count })", ['return {"x": "n" + _js_text(state["count"])}']],
  [
    '(s) => ({ x: `${s.x}/${s.meta}/${s.log}`, y: String(s.x) })',
    [
      'return {"x": _js_string(state.get("x", _MISSING)) + "/" + _js_text(state["meta"]) + "/" + _js_text(state["log"]), "y": _js_string(state.get("x", _MISSING))}',
    ],
  ],
  [
    "(s) => ({ x: 'a' + 1.5 + `${-0}` + 1e21, t: 'n' + 4294967296 })",
    [
      'return {"x": "a" + _js_text(1.5) + str(-0) + _js_text(1e+21), "t": "n" + _js_text(4294967296)}',
    ],
  ],
  [
    '(s) => ({ n: s.log.length * 2, t: `${s.log.length * 2}` })',
    ['return {"n": len(state["log"]) * 2, "t": _js_text(len(state["log"]) * 2)}'],
  ],
  [
    "(s) => ({ approved: 'Draft ' + (s.count + 1) + ' for: ' + s.x })",
    [
      'return {"approved": "Draft " + _js_text(_js_number(state["count"], "node f") + 1) + " for: " + _js_string(state.get("x", _MISSING))}',
    ],
  ],
  [
    "(s) => ({ y: s.x.y, z: 'z=' + s.x.y })",
    [
      'return {"y": _js_get(state.get("x"), "y", "node f"), "z": "z=" + _js_string(_js_get(state.get("x"), "y", "node f", _MISSING))}',
    ],
  ],
  [
    "(s) => ({ x: s.log.join(', '), y: s.x.join() })",
    [
      'return {"x": _js_join(state["log"], ", "), "y": _js_join(_js_list(state.get("x"), "node f"), ",")}',
    ],
  ],
  [
    "(s) => ({ n: 'a😀é'.length, m: s.x.length, k: s.events.length })",
    [
      'return {"n": _js_len("a😀é", "node f"), "m": _js_len(state.get("x"), "node f"), "k": _js_len(state.get("events"), "node f")}',
    ],
  ],
  [
    "(task) => ({ log: ['a joke about ' + task.subject], n: task.log.length })",
    [
      'return {"log": ["a joke about " + _js_string(_js_get(state, "subject", "node f", _MISSING))], "n": _js_len(_js_get(state, "log", "node f"), "node f")}',
    ],
    { sendTarget: true },
  ],
  [
    "(s) => s.count < 3 ? 'again' : 'done'",
    ['return "again" if _js_number(state["count"], "node f") < 3 else "done"'],
    { kind: 'router', hasPaths: true },
  ],
  [
    "(s) => (s.x ? 'a' : 'b')",
    ['return "a" if _js_truthy(state.get("x")) else "b"'],
    { kind: 'router', hasPaths: true },
  ],
  // routers
  [
    "(s) => [new Send('w', { n: s.log.length }), 'b', END]",
    ['return [Send("w", {"n": len(state["log"])}), "b", END]'],
    { kind: 'router' },
  ],
  [
    "(s) => s.log.length > 3 ? 'done' : 'again'",
    ['return "done" if len(state["log"]) > 3 else "again"'],
    { kind: 'router' },
  ],
  [
    "(s) => s.log.length > 3 ? 'a' + 'b' : 'c'",
    ['return "a" + "b" if len(state["log"]) > 3 else "c"'],
    { kind: 'router', hasPaths: true },
  ],
  ['(s) => []', ['return []'], { kind: 'router' }],
  // reducers
  ['(a, b) => [a, b]', ['return [a, b]'], { kind: 'reducer' }],
  ['(current) => current', ['return current'], { kind: 'reducer' }],
]

/** JavaScript that must not be translated, with a word of the reason. */
const FALLBACKS: [code: string, reason: RegExp, options?: Partial<TranslateOptions>][] = [
  ['(s) => ({ x: s.log + s.tags })', /`\+`/],
  ["(s) => ({ y: s.x['y'] })", /computed member|`\[y\]`/],
  ['(s) => ({ y: s.x[0] })', /`\[0\]`/],
  ["(s) => ({ y: s.log['a' + 1] })", /an index that may not be a number/],
  ['(s) => ({ x: JSON.stringify(s.msgs.at(-1)) })', /may be undefined/],
  ['(s) => ({ y: s.x?.y })', /optional chaining/],
  ['(s) => { for (const i of s.log) {} return {} }', /a loop/],
  ['(s) => { while (false) {} }', /a loop/],
  ['(s) => ({ x: s.log.map((i, n) => i) })', /`\.map\(\)` of anything but an arrow function/],
  ['(s) => ({ x: s.log.map((i) => { return i }) })', /returning an expression/],
  ['(s) => ({ x: s.log.map(String) })', /`\.map\(\)`/],
  ['(s) => ({ x: s.log.filter((i) => i, 1) })', /`\.filter\(\)`/],
  ['(s) => ({ x: s.log.reduce((a, b) => (b.length > a.length ? b : a)) })', /may be undefined/],
  ['(s) => { const f = () => 1; return {} }', /closures/],
  ["async (s) => { await fetch('x'); return {} }", /`await` of anything but a delay/],
  ['async (s) => { await new Promise((r) => setTimeout(() => r(), 5)); return {} }', /a delay/],
  ['async (s) => { const setTimeout = 1; await new Promise((r) => setTimeout(r, 5)) }', /a delay/],
  ['async (s) => { await new Promise((r) => setTimeout(r, s.x)); return {} }', /not be a number/],
  ['async (s) => ({ x: await interrupt(1) })', /`await`/],
  ['(s) => ({ x: JSON.stringify({ a: s.x }) })', /an object the code builds/],
  ['(s) => { const o = s.x; return { x: JSON.stringify(o) } }', /an object the code builds/],
  ["(s) => ({ x: JSON.parse('1') })", /only `JSON.stringify\(value\)`/],
  ['(s) => ({ x: JSON.stringify(s.x, null, 2) })', /only `JSON.stringify\(value\)`/],
  ["(s) => ({ x: /a/.test('a') })", /regular expression/],
  ["(s) => ({ x: 'abc'.toUpperCase() })", /`\.toUpperCase\(\)`/],
  ['(s) => ({ y: s.log === s.tags })', /identity/],
  ['(s) => ({ y: s.x === 1 })', /`===`/],
  ['(s) => ({ y: s.x === null })', /may be undefined/],
  ['(s) => ({ y: s.count === undefined })', /may be null/],
  ["(s) => ({ y: s.x == 'a' })", /`==`/],
  ['(s) => ({ n: s.log.length % 2 })', /`%`/],
  ['(s) => ({ n: s.log.length / s.tags.length })', /dividing by zero/],
  ['(s) => ({ n: s.log.length / 0 })', /dividing by zero/],
  ["(s) => ({ y: 'a' < 'b' })", /strings order differently/],
  ['(s) => { var a = 1; return {} }', /`var`/],
  ['(s) => { let a = 1; a = 2; return {} }', /assignment/],
  ['(s) => { let a; return {} }', /without a value/],
  ['(s) => { const { a } = s; return {} }', /destructuring/],
  ['function (s) { return { x: this } }', /`this`/],
  ['function (s) { return { n: arguments.length } }', /`arguments`/],
  ['(s) => ({ [s.x]: 1 })', /computed object key/],
  ['(s) => ({ __proto__: { x: 1 } })', /prototype/],
  ['(s) => ({ x: s.toString })', /inherits/],
  ["(s) => ({ y: 'constructor' in s })", /inherits/],
  ['(s) => ({ log: s.x })', /may be undefined/],
  ['(s) => ({ log: undefined })', /may be undefined/],
  ['(s) => ({ x: s.missing })', /may be undefined/],
  ['(s) => ({ meta: { __overwrite__: 1 } })', /Overwrite/],
  ["(s) => ({ meta: { type: '__overwrite__', value: 1 } })", /Overwrite/],
  ["(s) => ({ msgs: [{ type: 'ai', id: 'x' }] })", /without `content`/],
  ["(s) => ({ msgs: [{ type: 'ai', role: 'ai', content: 'x' }] })", /both `type` and `role`/],
  ["(s) => ({ msgs: [{ type: 'generic', content: 'x' }] })", /type is not a literal/],
  ["(s) => ({ msgs: [{ type: 'tool', content: 'x' }] })", /tool_call_id/],
  ["(s) => ({ msgs: [{ type: 'ai', content: s.x }] })", /may not be a string/],
  ['(s) => ({ msgs: s.log })', /neither text nor an object literal/],
  [
    "(s) => ({ msgs: [{ type: 'ai', content: '', tool_calls: [{ name: 'f', args: {} }] }] })",
    /name, args and id/,
  ],
  ['(s, config) => ({ a: config.writer })', /run config other than reading/],
  ['(s, config) => ({ a: config })', /run config other than reading/],
  ['(s, config, x) => ({})', /third parameter/],
  ['(s, { configurable }) => ({})', /config parameter that is not a plain name/],
  ['(s = {}) => ({})', /parameter pattern/],
  ["(s) => s.log.length > 0 ? 'a' + 'b' : 'c'", /without a path map/, { kind: 'router' }],
  ["(s) => ''", /a route to ""/, { kind: 'router' }],
  ["(s) => '__start__'", /a route to "__start__"/, { kind: 'router' }],
  ['(s) => s.x', /may not be a string/, { kind: 'router', hasPaths: true }],
  ['(s) => s.nope', /not a state field/, { kind: 'router', hasPaths: true }],
  ["(s) => new Command({ goto: 'a' })", /Command/, { kind: 'router' }],
  ['(a, b) => a + b', /`\+`/, { kind: 'reducer' }],
  ['(a, b) => Math.max(a, b)', /Math\.max/, { kind: 'reducer' }],
  ['(a, b, c) => a', /more than two/, { kind: 'reducer' }],
  ['(a, b) => ({ t: `${a}` })', /undefined and null read alike/, { kind: 'reducer' }],
  ["(s) => { const v = s.x; return { t: 'v=' + v } }", /undefined and null read alike/],
  ["(s) => ({ y: s.x < 'b' })", /strings order differently/],
  ['(s) => ({ y: interrupt(1) && 2 })', /with effects/],
  ['(s) => ({ y: s.x + s.count })', /`\+`/],
  ['(s) => ({ y: s.log.join(s.x) })', /separator/],
  ["(s) => ({ y: 'x' in s })", /`in` on anything but the state/, { sendTarget: true }],
  ['(s) => ({ y: typeof s.x })', /`typeof`/],
  ['(s) => ({ y: Math.max(s.x, 1) })', /Math\.max/],
  ['(s) => { const a = 1; { const b = a; const a = 2 } return {} }', /before its declaration/],
  ['(s) => ({ y: (1, 2) })', /comma operator/],
  ['(s) => ({ x: Object.values(s) })', /only `Object.keys\(\)` of an object/],
  ['(s) => ({ tags: Object.keys(s.x) })', /only `Object.keys\(\)` of an object/],
  ['(s) => ({ log: s.log.sort() })', /sorts in place/],
  ['(s) => ({ get x() { return 1 } })', /getter/],
  ['(s) => ({ x: new Date() })', /`new Date`/],
  ["(s) => ({ x: Send('a', {}) })", /a call of `Send`/],
  ['(s) => new Command({ resume: 1 })', /`resume` in a Command/],
  ["(s) => new Command({ graph: 'main', goto: 'a' })", /`graph` is not `Command.PARENT`/],
  ['async (s) => ({ x: await subgraphs.team.invoke({}) })', /subgraph `team`, which this graph/],
  ['async (s) => ({ x: await subgraphs.team.stream({}) })', /`await` of anything but/],
  ["(s) => new Command({ goto: 'a', goto: 'b' })", /twice/],
  ['(s) => s.log', /a node returning something other/],
  ["(s) => [{ x: 1 }, 'str']", /returned array/],
  ["(s) => { throw 'x' }", /`throw`/],
  ['(s) => { switch (s.x) {} }', /`switch`/],
  ['(s) => { try {} catch {} }', /`try`/],
  ['(s) => ({ x: [1, , 2] })', /holes/],
  ['(s) => ({ x: 10n })', /BigInt/],
  ['(s) => ({ x: tag`a` })', /tagged template/],
  ['function* (s) { yield 1 }', /generator/],
  ['1 + 2', /not a function literal/],
  ['(s) => { (() => 1)() }', /closures|computed function/],
  ["(s) => ({ x: '\\ud83d' + '\\ude00' })", /lone surrogate/],
  ["(s) => { const a = '\\ud83d'; return { x: `${a}\\ude00` } }", /lone surrogate/],
  ["(s) => ({ x: (s.log.length ? '\\ud83d' : 'a') + 'b' })", /lone surrogate/],
  ["(s) => ({ x: ['\\ude00'].includes('\\ude00') })", /lone surrogate/],
  [
    "(s) => ({ y: interrupt(1) === 'a' && s.tags.concat([interrupt(2)]).includes(interrupt('x') === 1 ? 'a' : 'b') })",
    /effects on both sides|`===`/,
  ],
  ["(s) => s.events ? 'a' : 'b'", /topic/, { kind: 'router', hasPaths: true }],
]

describe('translateFunction: what is translated', () => {
  it.each(TRANSLATED)('%s', (code, python, options) => {
    const t = translate(code, options)
    expect(t.ok ? t.body : t.reason).toEqual(python)
  })

  it('writes numbers as Python reads them back', () => {
    const t = translate('(s) => ({ n: 1.5, m: 1e21, k: 0x10, j: 9007199254740993, z: -0 })')
    expect(t.ok && t.body).toEqual([
      'return {"n": 1.5, "m": 1e+21, "k": 16, "j": 9007199254740992.0, "z": -0}',
    ])
  })

  it('names the LangGraph functions it uses', () => {
    const t = translate(
      "(s) => s.log.length ? new Command({ goto: new Send('w', interrupt(1)) }) : { msgs: { type: 'remove', id: 'a' } }",
    )
    expect(t.ok && [...t.imports].sort()).toEqual(['Command', 'RemoveMessage', 'Send', 'interrupt'])
  })

  it("reads the run's settings from LangGraph's `config` parameter", () => {
    const t = translate(
      "(s, cfg) => { const c = cfg.configurable; return { a: c.who ?? 'x', b: cfg.configurable['n'] ?? 0 } }",
      { fields: [{ name: 'a' }, { name: 'b' }] },
    )
    expect(t.ok && t.params).toEqual(['state', 'config'])
    expect(t.ok ? t.body.join('\n') : t.reason).toContain('config["configurable"]')
    expect(t.ok ? t.body.join('\n') : t.reason).toMatch(/_js_get\(config\["configurable"\], "n"/)
  })

  it('gives a reducer two positional parameters, whatever the code declares', () => {
    const t = translate('() => 1', { kind: 'reducer' })
    expect(t.ok && t.params).toEqual(['a', 'b'])
  })
})

describe('translateFunction: what falls back', () => {
  it.each(FALLBACKS)('%s', (code, reason, options) => {
    const t = translate(code, options)
    expect(t.ok ? t.body : t.reason).toMatch(reason)
    expect(t.ok).toBe(false)
  })

  it('says so for code that does not parse', () => {
    expect(translate('(s) => {').ok).toBe(false)
  })
})

describe('findSendTargets', () => {
  it('collects literal Send targets and notices computed ones', () => {
    expect(findSendTargets(["(s) => [new Send('a', 1), new Send(`b`, 2)]"])).toEqual({
      targets: new Set(['a']),
      computed: true,
    })
    expect(findSendTargets(["(s) => new Command({ goto: new Send('c', {}) })", 'nope ('])).toEqual({
      targets: new Set(['c']),
      computed: false,
    })
  })
})

// ---------------------------------------------------------------------------------------
// The translations run: each translated function, in JavaScript and in Python, on states of
// every kind the schema allows, must return the same JSON or both fail.
// ---------------------------------------------------------------------------------------

const STATE_SAMPLES: Record<string, unknown>[] = (() => {
  const lastValues: unknown[] = [
    undefined,
    null,
    'a',
    '',
    0,
    1,
    -2.5,
    [],
    {},
    true,
    false,
    'hello',
    [1, 'b'],
    { k: 'v' },
    // for the guards: text where a number is expected, non-ASCII text, nested objects
    '2',
    'a😀é',
    '\ud83d',
    { y: 'deep' },
    { y: null },
    { y: { z: [1.5, null] } },
    3,
    2 ** 40,
    [[1, [2, null]], {}],
    // for JSON.stringify: index keys (JavaScript lists them first), escapes, big and small numbers
    { b: 1, '10': 2, '2': [3], '01': 4 },
    'tab\there "q" \\ \u0001 \u2028',
    1e21,
    1.5e-7,
  ]
  const lists: unknown[][] = [[], ['a'], [1, 'b', null], ['x', 'y', 'z', 'w'], [[], {}, 1.5]]
  return lastValues.map((x, i) => {
    const s: Record<string, unknown> = {
      log: lists[i % lists.length],
      tags: lists[(i + 1) % lists.length],
      count: [0, 5, 'x', 2.5, null][i % 5],
      msgs: [],
      meta: [{}, { a: 1 }, 'm'][i % 3],
    }
    if (x !== undefined) s.x = x
    if (i % 2 === 1) s.events = ['e1', 'e2']
    if (i % 3 === 0) s.answer = 42
    return s
  })
})()

const REDUCER_SAMPLES: [unknown, unknown][] = [
  [null, 1],
  [[1], 'b'],
  [{ a: 1 }, 0],
  ['', []],
]

/** JSON of what a JavaScript function returns, Sends and Commands tagged, undefined as null. */
function normalize(v: unknown): unknown {
  if (v === undefined || v === null) return null
  if (Array.isArray(v)) return v.map(normalize)
  if (typeof v === 'object') {
    return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, normalize(x)]))
  }
  return v
}

class JsSend {
  __send: unknown[]
  constructor(node: unknown, arg: unknown) {
    this.__send = [node, arg]
  }
}
class JsCommand {
  static PARENT = '__parent__'
  __command: unknown
  constructor(params: unknown) {
    this.__command = params ?? {}
  }
}

async function runJs(code: string, args: unknown[], kind: CodeKind): Promise<unknown> {
  const make = new Function(
    'Send',
    'Command',
    'interrupt',
    'START',
    'END',
    `"use strict";\nreturn (${code}\n)`,
  )
  const fn = make(JsSend, JsCommand, () => true, '__start__', '__end__') as (
    ...a: unknown[]
  ) => unknown
  try {
    const out = await fn(...structuredClone(args))
    // A node's falsy return is "no update", as Python's None is.
    return { ok: kind === 'node' && !out ? null : normalize(out) }
  } catch {
    return { error: true }
  }
}

const PY_RUNNER = String.raw`
import json, sys

def Send(node, arg):
    return {"__send": [node, arg]}

def Command(**params):
    return {"__command": params}

Command.PARENT = "__parent__"

def RemoveMessage(id):
    return {"type": "remove", "id": id}

def interrupt(value):
    return True

def sleep(seconds):
    assert seconds >= 0

from functools import reduce

START, END = "__start__", "__end__"
data = json.loads(sys.stdin.read())
out = []
for case in data["cases"]:
    scope = {"Send": Send, "Command": Command, "RemoveMessage": RemoveMessage, "interrupt": interrupt, "sleep": sleep, "reduce": reduce, "START": START, "END": END}
    exec(data["prelude"], scope)
    exec(case["source"], scope)
    results = []
    for args in case["samples"]:
        try:
            results.append({"ok": scope["f"](*args)})
        except TypeError as e:
            # A guard's TypeError says what JavaScript would have done differently.
            results.append({"guard": True} if "JavaScript" in str(e) else {"error": True})
        except Exception as e:
            results.append({"error": True})
    out.append(json.loads(json.dumps(results)))
sys.stdout.write(json.dumps(out))
`

/** Every helper translated code may call, as the emitted module defines them. */
const JS_HELPERS: JsHelper[] = [
  '_MISSING',
  '_js_text',
  '_js_string',
  '_js_truthy',
  '_js_number',
  '_js_len',
  '_js_get',
  '_js_list',
  '_js_join',
  '_js_json',
  '_js_at',
  '_js_message',
  '_js_messages',
  '_js_keys',
  '_js_sort',
]
const PRELUDE_PARTS = preludeFor(new Set(JS_HELPERS))
const PRELUDE = [
  [...[...PRELUDE_PARTS.imports].map((i) => `import ${i}`), 'from typing import Any'].join('\n'),
  ...PRELUDE_PARTS.blocks,
].join('\n\n\n')

type Outcome = { ok: unknown } | { error: true } | { guard: true }

function runPython(cases: { source: string; samples: unknown[][] }[]): Outcome[][] {
  const py = spawnSync('python3', ['-c', PY_RUNNER], {
    input: JSON.stringify({ prelude: PRELUDE, cases }),
    encoding: 'utf8',
  })
  expect(py.stderr).toBe('')
  return JSON.parse(py.stdout) as Outcome[][]
}

/** Python's outcomes with each guard's TypeError replaced by what JavaScript did there. */
function unlessGuarded(py: Outcome[], js: unknown[]): unknown[] {
  return py.map((o, i) => ('guard' in o ? js[i] : o))
}

describe('translations run like the JavaScript', () => {
  it('would notice a naive translation (the check itself)', async () => {
    const naive = [
      ["(s) => ({ y: s.x ? 'a' : 'b' })", 'return {"y": "a" if state.get("x") else "b"}'],
      ["(s) => ({ y: 'n' + s.count })", 'return {"y": "n" + str(state["count"])}'],
      ['(s) => ({ y: s.x === 1 })', 'return {"y": state.get("x") == 1}'],
    ]
    const samples = STATE_SAMPLES.map((s) => [s])
    const results = runPython(
      naive.map(([, body]) => ({ source: `def f(state):\n    ${body}`, samples })),
    )
    for (const [i, [code]] of naive.entries()) {
      const js = await Promise.all(samples.map((args) => runJs(code as string, args, 'node')))
      expect(unlessGuarded(results[i] as Outcome[], js)).not.toEqual(js)
    }
  })

  it('returns the same JSON (or fails alike, or a guard raises) on every sample state, for every translated snippet', async () => {
    const cases = TRANSLATED.map(([code, , options]) => {
      const t = translate(code, options)
      if (!t.ok) throw new Error(`not translated: ${code}: ${t.reason}`)
      const kind: CodeKind = options?.kind ?? 'node'
      const samples: unknown[][] =
        kind === 'reducer' ? REDUCER_SAMPLES : STATE_SAMPLES.map((s) => [s])
      const source = [`def f(${t.params.join(', ')}):`, ...t.body.map((l) => `    ${l}`)].join('\n')
      return { code, source, samples, kind }
    })
    const pyResults = runPython(cases.map(({ source, samples }) => ({ source, samples })))
    let guarded = 0
    for (const [i, c] of cases.entries()) {
      const js = await Promise.all(c.samples.map((args) => runJs(c.code, args, c.kind)))
      const py = pyResults[i] as Outcome[]
      expect({ code: c.code, results: unlessGuarded(py, js) }).toEqual({
        code: c.code,
        results: js,
      })
      // A guard that always raises would pass: on some sample, no guard may raise.
      expect({ code: c.code, runs: py.some((o) => !('guard' in o)) }).toEqual({
        code: c.code,
        runs: true,
      })
      guarded += py.filter((o) => 'guard' in o).length
    }
    expect(guarded).toBeGreaterThan(50)
  })
})
