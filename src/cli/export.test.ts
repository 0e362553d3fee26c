import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { emitProject } from '../codegen/project'
import { emitPython } from '../codegen/python'
import { emitTypeScript } from '../codegen/typescript'
import { parseGraph } from '../core/graph/validate'
import counter from '../../examples/counter.json'
import { main } from './main'

const dir = mkdtempSync(join(tmpdir(), 'superstep-export-'))
const graphPath = join(dir, 'counter.json')
writeFileSync(graphPath, JSON.stringify({ ...counter, extra: 'kept' }))
const parsed = parseGraph(counter)
if (!parsed.ok) throw new Error('counter does not parse')
const spec = parsed.spec

async function cli(...argv: string[]) {
  let stdout = ''
  let stderr = ''
  const code = await main(argv, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s) })
  return { code, stdout, stderr }
}

describe('superstep export', () => {
  it('prints the TypeScript or Python module, as the app shows it', async () => {
    expect(await cli('export', '--lang', 'ts', graphPath)).toEqual({
      code: 0,
      stdout: emitTypeScript(spec),
      stderr: '',
    })
    expect((await cli('export', '--lang', 'py', graphPath)).stdout).toBe(emitPython(spec))
  })

  it('writes a project tree, or the app zip, with the graph file as saved', async () => {
    const out = join(dir, 'tree')
    expect((await cli('export', '--lang', 'project', graphPath, '--out', out)).code).toBe(0)
    const files = emitProject(spec).map((f) => f.path)
    for (const f of files) expect(readdirSync(join(out, f, '..'))).toContain(f.split('/').pop())
    const graphText = readFileSync(join(out, 'counter.superstep.json'), 'utf8')
    expect(JSON.parse(graphText)).toMatchObject({ extra: 'kept', name: 'counter' })
    expect(readFileSync(join(out, 'src/graph.ts'), 'utf8')).toBe(emitTypeScript(spec))

    const zipPath = join(dir, 'out', 'counter.zip')
    expect((await cli('export', '--lang', 'project', graphPath, '--out', zipPath)).code).toBe(0)
    const zip = unzipSync(new Uint8Array(readFileSync(zipPath)))
    expect(Object.keys(zip).sort()).toEqual(files.map((f) => `counter/${f}`).sort())
    // The dot files travel too: the env files langgraph.json names, and .dockerignore.
    expect(Object.keys(zip)).toEqual(
      expect.arrayContaining(
        ['.env', '.env.example', '.dockerignore', 'python/.env', 'python/.dockerignore'].map(
          (f) => `counter/${f}`,
        ),
      ),
    )
    expect(strFromU8(zip['counter/counter.superstep.json'] as Uint8Array)).toBe(graphText)
    // Deterministic: the same document zips to the same bytes.
    const again = join(dir, 'out', 'again.zip')
    await cli('export', '--lang', 'project', graphPath, '--out', again)
    expect(readFileSync(again).equals(readFileSync(zipPath))).toBe(true)
  })

  it('refuses an unknown language and an invalid graph', async () => {
    const r = await cli('export', '--lang', 'rust', graphPath)
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/--lang must be ts, py or project, got rust/)
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, JSON.stringify({ ...counter, nodes: [{ id: 'x', code: '(s) =>' }] }))
    const b = await cli('export', '--lang', 'ts', bad)
    expect(b.code).toBe(2)
    expect(b.stderr).toMatch(/CODE_SYNTAX/)
  })

  it('refuses code with an HTML-like comment, which a module would run', async () => {
    const html = join(dir, 'html-comment.json')
    const code = '(s) => ({}) <!--globalThis.PWNED = 1\n'
    writeFileSync(html, JSON.stringify({ ...counter, nodes: [{ id: 'inc', code }] }))
    for (const lang of ['ts', 'py', 'project']) {
      const r = await cli('export', '--lang', lang, html, '--out', join(dir, `html-${lang}`))
      expect(r).toMatchObject({ code: 2, stdout: '' })
      expect(r.stderr.trim().split('\n')).toHaveLength(1)
      expect(r.stderr).toMatch(/CODE_SYNTAX.*HTML-like comment/)
      expect(readdirSync(dir)).not.toContain(`html-${lang}`)
    }
    expect((await cli('validate', html)).code).toBe(2)
    expect((await cli('run', html)).code).toBe(2)
  })

  it('exports a graph with subgraphs: each its own StateGraph, added as a node', async () => {
    const withSubgraph = join(dir, 'crew.json')
    writeFileSync(
      withSubgraph,
      JSON.stringify({
        superstep: 1,
        name: 'crew',
        state: [{ name: 'x' }],
        nodes: [{ id: 'team', kind: 'graph', graph: 'team' }],
        edges: [{ from: '__start__', to: 'team' }],
        subgraphs: {
          team: {
            state: [{ name: 'x' }],
            nodes: [{ id: 'w', code: '(s) => s' }],
            edges: [{ from: '__start__', to: 'w' }],
          },
        },
      }),
    )
    const expected: Record<string, string[]> = {
      ts: ['const teamGraph = teamBuilder.compile()', ".addNode('team', teamGraph)"],
      py: ['team_graph = team_builder.compile()', 'builder.add_node("team", team_graph)'],
      project: ['==> src/graph.ts <==', '==> python/graph.py <==', 'teamGraph', 'team_graph'],
    }
    for (const [lang, texts] of Object.entries(expected)) {
      const r = await cli('export', '--lang', lang, withSubgraph)
      expect(r).toMatchObject({ code: 0, stderr: '' })
      for (const text of texts) expect(r.stdout).toContain(text)
    }
  })
})
