/**
 * Seeded random graph documents whose names, keys and texts are drawn from a nasty alphabet
 * (quotes, backslashes, every line terminator, comment delimiters, lone surrogates, emoji,
 * prototype keys), for the emitters' tests. Every document is valid per `parseGraph` and
 * runs to the end on `{}`: a chain of nodes from START, each writing one field, closed by a
 * conditional edge whose path map keys are nasty too. Deterministic for a seed.
 */
import { parseGraph } from '../core/graph/validate'
import type { GraphSpec } from '../core/graph/schema'
import { seededRandom } from '../lib/random'

/** A small fast PRNG (mulberry32): the same seed, the same sequence. */
export const createRandom: (seed: number) => () => number = seededRandom

const PIECES = [
  ...'aZq_$09 -.#%@!?~^&=+,;()[]{}<>'.split(''),
  '"',
  "'",
  '`',
  '\\',
  '\\n',
  '\n',
  '\r',
  '\r\n',
  '\t',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u0000',
  '\u001b',
  '\u007f',
  '\u200b',
  '\ufeff',
  '*/',
  '/*',
  '//',
  '${',
  '<!--',
  '-->',
  '</script>',
  'é',
  'ß',
  '中文',
  '😀',
  '\ud800',
  '\udfff',
  '\\u0041',
]

/** Names a module's own bindings or JavaScript objects care about. */
const SPECIAL = [
  'State',
  'builder',
  'graph',
  'add',
  'append',
  'union',
  'merge',
  'Annotation',
  'StateGraph',
  'MemorySaver',
  'NodeFn',
  'RouterFn',
  'ReducerFn',
  'Send',
  'Command',
  'interrupt',
  'START',
  'END',
  'Promise',
  'Array',
  'undefined',
  'default',
  'class',
  'await',
  'inc',
  'inc_2',
  'route',
  '1st',
  '$',
  '_',
]

/** Keys JavaScript objects treat specially; LangGraph.js keeps nodes and channels in plain objects. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']

export interface FuzzOptions {
  /** Also use `__proto__`, `constructor`, … as names (for static checks; LangGraph.js trips on them). */
  prototypeKeys?: boolean
}

const REDUCERS = [
  'none',
  'overwrite',
  'append',
  'add',
  'union',
  'merge',
  'custom',
  'add_messages',
  'topic',
  'ephemeral',
] as const
type Kind = (typeof REDUCERS)[number]

/** One valid random document for `seed`. */
export function fuzzGraph(seed: number, options: FuzzOptions = {}): GraphSpec {
  for (let attempt = 0; ; attempt++) {
    const doc = makeDocument(createRandom(seed * 7919 + attempt), options)
    const parsed = parseGraph(doc)
    if (parsed.ok && parsed.spec) return parsed.spec
    if (attempt > 50) throw new Error(`no valid document for seed ${seed}`)
  }
}

function makeDocument(rnd: () => number, options: FuzzOptions): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T
  const specials = options.prototypeKeys ? [...SPECIAL, ...PROTOTYPE_KEYS] : SPECIAL
  const text = (max: number) =>
    Array.from({ length: 1 + Math.floor(rnd() * max) }, () => pick(PIECES)).join('')
  const name = () => (rnd() < 0.3 ? pick(specials) : text(4))
  const unique = (count: number, make: () => string, taken: Set<string>) => {
    const out: string[] = []
    while (out.length < count) {
      const n = make()
      if (!taken.has(n)) {
        taken.add(n)
        out.push(n)
      }
    }
    return out
  }
  const taken = new Set<string>()
  const fields = unique(1 + Math.floor(rnd() * 4), name, taken).map((n) => ({
    name: n,
    kind: pick(REDUCERS),
  }))
  const nodeName = () => name().replace(/[:|]/g, '')
  const nodes = unique(1 + Math.floor(rnd() * 4), nodeName, new Set([...taken, '', '__start__']))
  const keys = unique(2, () => text(3), new Set())
  const described = (o: Record<string, unknown>) =>
    rnd() < 0.5 ? { ...o, description: text(6) } : o
  return {
    superstep: 1,
    name: text(5),
    ...(rnd() < 0.5 ? { description: text(8) } : {}),
    state: fields.map((f) => described(fieldJson(f.name, f.kind, rnd, text))),
    nodes: nodes.map((id, i) => {
      const f = fields[i % fields.length] as { name: string; kind: Kind }
      return described({ id, code: writerCode(f.name, f.kind, i, text(3), rnd) })
    }),
    edges: [
      { from: '__start__', to: nodes[0] },
      ...nodes.slice(1).map((to, i) => ({ from: nodes[i], to })),
    ],
    branches: [
      {
        from: nodes.at(-1),
        router: `(state) => ${JSON.stringify(keys[0])}`,
        paths: { [keys[0] as string]: '__end__', [keys[1] as string]: nodes[0] },
      },
    ],
    ...(rnd() < 0.2 ? { interruptAfter: [pick(nodes)] } : {}),
  }
}

function fieldJson(name: string, kind: Kind, rnd: () => number, text: (n: number) => string) {
  const withDefault = rnd() < 0.6
  switch (kind) {
    case 'none':
      return { name }
    case 'topic':
      return { name, channel: 'topic', accumulate: rnd() < 0.5 }
    case 'ephemeral':
      return { name, channel: 'ephemeral' }
    case 'custom':
      return { name, reducer: 'custom', code: '(a, b) => [a, b]' }
    case 'add':
      return { name, reducer: 'add', ...(withDefault ? { default: text(2) } : {}) }
    case 'merge':
      return { name, reducer: 'merge', ...(withDefault ? { default: { [text(2)]: text(2) } } : {}) }
    case 'add_messages':
      return { name, reducer: 'add_messages', ...(withDefault ? { default: [] } : {}) }
    default:
      return {
        name,
        reducer: kind,
        ...(withDefault ? { default: [text(2), { [text(2)]: 1 }] } : {}),
      }
  }
}

/** Node code writing one value to `field`, its strings and comments nasty too. */
function writerCode(field: string, kind: Kind, i: number, s: string, rnd: () => number): string {
  const key = JSON.stringify(field)
  const value =
    kind === 'add_messages'
      ? `[{ type: 'human', content: ${JSON.stringify(s)}, id: 'm${i}' }]`
      : kind === 'merge'
        ? `{ [${JSON.stringify(s)}]: ${i} }`
        : kind === 'add'
          ? JSON.stringify(s)
          : `[${JSON.stringify(s)}]`
  const body = `(state) => ({ [${key}]: ${value} })`
  const r = rnd()
  // A trailing line comment, a comma expression, or plain.
  if (r < 0.25) return `${body} // ${s.replace(/[\n\r\u2028\u2029]/g, ' ')}`
  if (r < 0.5) return `${JSON.stringify(s)}, ${body}`
  return body
}
