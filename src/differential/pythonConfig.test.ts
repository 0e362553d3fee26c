import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { emitPython } from '../codegen/python'
import { parseGraph } from '../core/graph/validate'
import { runGraph } from '../core/run'
import { createCountingEnv } from '../lib/env'

/**
 * Run settings in the Python export: node code and a router that read
 * `config.configurable.<name>` are translated, and `python graph.py` runs the graph with the
 * declared defaults, a second argument's settings over them, as Superstep runs it.
 */

const PYTHONPATH = fileURLToPath(new URL('../../.cache/langgraph-python', import.meta.url))
const env = { ...process.env, PYTHONPATH, PYTHONDONTWRITEBYTECODE: '1' }
const hasLangGraph = spawnSync('python3', ['-c', 'import langgraph.graph'], { env }).status === 0

const DOC = {
  superstep: 1,
  name: 'settings',
  config: [
    { name: 'greeting', type: 'string', default: 'hello', description: 'How to greet.' },
    { name: 'times', type: 'number', default: 2 },
    { name: 'who', type: 'string' },
  ],
  state: [
    { name: 'text', type: 'string' },
    { name: 'n', reducer: 'add', default: 0 },
  ],
  nodes: [
    {
      id: 'greet',
      code: "(s, config) => ({ text: config.configurable.greeting + ' ' + (config.configurable['who'] ?? 'nobody'), n: 1 })",
    },
    { id: 'again', code: '(s) => ({ n: 1 })' },
  ],
  edges: [
    { from: '__start__', to: 'greet' },
    { from: 'again', to: 'greet' },
  ],
  branches: [
    {
      from: 'greet',
      router: "(s, config) => s.n < config.configurable.times ? 'again' : '__end__'",
      paths: ['again', '__end__'],
    },
  ],
}

const parsed = parseGraph(DOC)
if (!parsed.ok || !parsed.spec) throw new Error('the document is invalid')
const spec = parsed.spec
const dir = mkdtempSync(join(tmpdir(), 'superstep-pyconfig-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the Python export reads the run settings', () => {
  const source = emitPython(spec)

  it('translates config.configurable reads and declares the defaults', () => {
    expect(source).not.toContain('translate this JavaScript by hand')
    expect(source).toContain('def greet(state, config):')
    expect(source).toContain('def route_greet(state, config):')
    expect(source).toContain('CONFIGURABLE = {"greeting": "hello", "times": 2}')
  })

  it('refuses other uses of the config, saying what to do by hand', () => {
    const writer = emitPython({
      ...spec,
      nodes: [{ id: 'greet', code: "(s, config) => { config.writer('x'); return { n: 1 } }" }],
      branches: [],
      edges: [{ from: '__start__', to: 'greet' }],
    })
    expect(writer).toMatch(/to translate by hand: a use of the run config other than reading/)
  })

  it.skipIf(!hasLangGraph)('runs on LangGraph Python as Superstep runs it', async () => {
    const file = join(dir, 'graph.py')
    writeFileSync(file, source)
    const run = (own: Record<string, unknown>) => {
      const out = spawnSync('python3', [file, '{}', JSON.stringify(own)], { env, encoding: 'utf8' })
      expect(out.stderr).toBe('')
      return JSON.parse(out.stdout.slice(out.stdout.indexOf('\n{') + 1)) as unknown
    }
    const ours = async (own: Record<string, unknown>) =>
      (await runGraph(spec, { input: {}, configurable: own, env: createCountingEnv() })).values
    expect(run({})).toEqual({ text: 'hello nobody', n: 3 })
    expect(run({})).toEqual(await ours({}))
    const own = { who: 'Ada', times: 4 }
    expect(run(own)).toEqual({ text: 'hello Ada', n: 5 })
    expect(run(own)).toEqual(await ours(own))
  })
})
