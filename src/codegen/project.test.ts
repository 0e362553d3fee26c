import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import type { GraphSpec } from '../core/graph/schema'
import { parseGraph } from '../core/graph/validate'
import counterDoc from '../../examples/counter.json'
import reactDoc from '../../examples/react-agent.json'
import { emitProject, type ProjectFile } from './project'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

function specOf(doc: unknown): GraphSpec {
  const parsed = parseGraph(doc)
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues))
  return parsed.spec
}

const counter = specOf(counterDoc)
/** The ReAct template on an OpenAI endpoint: the export then needs a key and @langchain/openai. */
const openai = specOf({
  ...reactDoc,
  nodes: reactDoc.nodes.map((n) =>
    n.kind === 'model'
      ? {
          ...n,
          model: { provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini' },
        }
      : n,
  ),
})

const file = (files: ProjectFile[], path: string): string => {
  const f = files.find((x) => x.path === path)
  if (!f) throw new Error(`no ${path} in the project`)
  return f.text
}

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/**
 * `npm run typecheck` in the exported project, as far as it can run offline: the project's
 * files and its own tsconfig, with this repository's node_modules (the same
 * `@langchain/langgraph`, `@langchain/core`, `@langchain/openai` and `@types/node`) linked in,
 * and this repository's TypeScript (6, where the project asks for ^5.8).
 */
function typecheck(files: ProjectFile[]): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'superstep-project-'))
  dirs.push(dir)
  for (const f of files) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true })
    writeFileSync(join(dir, f.path), f.text)
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc')
  return new Promise((resolve) => {
    execFile(process.execPath, [tsc, '-p', dir, '--pretty', 'false'], (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr })
    })
  })
}

describe('the exported project', () => {
  it('passes its own `npm run typecheck` (src/graph.ts and src/run.ts)', async () => {
    const [plain, withModel] = await Promise.all([
      typecheck(emitProject(counter)),
      typecheck(emitProject(openai)),
    ])
    expect(plain).toEqual({ code: 0, output: '' })
    expect(withModel).toEqual({ code: 0, output: '' })
  }, 120_000)

  it('loads .env in both LangGraph projects and keeps it out of git and images', () => {
    const files = emitProject(counter)
    for (const dir of ['', 'python/']) {
      expect(JSON.parse(file(files, `${dir}langgraph.json`))).toMatchObject({ env: '.env' })
      expect(file(files, `${dir}.dockerignore`).split('\n')).toContain('.env')
      // `langgraph up` refuses an env file that is not there: the project ships one.
      expect(file(files, `${dir}.env`)).toMatch(/^# /)
    }
    expect(file(files, '.dockerignore').split('\n')).toEqual(
      expect.arrayContaining(['node_modules/', 'python/']),
    )
    expect(file(files, 'python/.dockerignore').split('\n')).toContain('.venv/')
    expect(file(files, '.gitignore').split('\n')).toEqual(
      expect.arrayContaining(['.env', '.venv/']),
    )
  })

  it('lists the keys its model nodes read: none without an endpoint', () => {
    const files = emitProject(counter)
    for (const dir of ['', 'python/']) {
      expect(file(files, `${dir}.env.example`)).toBe(
        '# This graph needs no keys: none of its nodes calls a model endpoint.\n',
      )
      expect(file(files, `${dir}.env`)).not.toMatch(/^[^#\n]/m)
    }
    expect(file(files, 'README.md')).toContain(
      '## Keys\n\nNone: no node of this graph calls a model endpoint.',
    )
  })

  it('lists OPENAI_API_KEY, which ChatOpenAI reads, for an OpenAI model node', () => {
    const files = emitProject(openai)
    for (const dir of ['', 'python/']) {
      const example = file(files, `${dir}.env.example`).split('\n')
      expect(example.filter((l) => !l.startsWith('#'))).toEqual(['OPENAI_API_KEY=', ''])
      // Commented out: an empty value would hide a key exported in the shell.
      expect(file(files, `${dir}.env`).split('\n')).toContain('# OPENAI_API_KEY=')
      expect(file(files, `${dir}.env`)).not.toMatch(/^[^#\n]/m)
    }
    const readme = file(files, 'README.md')
    expect(readme).toContain('reads the key\nfrom `OPENAI_API_KEY`')
    expect(readme).toContain('- agent: gpt-4o-mini at https://api.openai.com/v1')
    // The variable the exported code reads is the one the project names.
    expect(file(files, 'src/graph.ts')).toContain('OPENAI_API_KEY')
    expect(file(files, 'python/graph.py')).toContain('OPENAI_API_KEY')
  })

  it('finds model nodes inside subgraphs: the key, the package, the README', () => {
    const crew = specOf({
      superstep: 1,
      name: 'crew',
      state: openai.state,
      nodes: [{ id: 'team', kind: 'graph', graph: 'team' }],
      edges: [
        { from: '__start__', to: 'team' },
        { from: 'team', to: '__end__' },
      ],
      subgraphs: { team: { ...openai, name: undefined, superstep: undefined } },
    })
    const files = emitProject(crew)
    expect(JSON.parse(file(files, 'package.json')).dependencies).toHaveProperty('@langchain/openai')
    expect(file(files, 'python/requirements.txt')).toContain('langchain-openai')
    expect(file(files, '.env.example').split('\n')).toContain('OPENAI_API_KEY=')
    expect(file(files, 'README.md')).toContain(
      '- team / agent: gpt-4o-mini at https://api.openai.com/v1',
    )
    expect(file(files, 'src/graph.ts')).toContain(".addNode('team', teamGraph)")
    expect(file(files, 'python/graph.py')).toContain('builder.add_node("team", team_graph)')
  })

  it('writes no text of the document into an env file', () => {
    const hostile = specOf({
      ...reactDoc,
      name: 'x\nOPENAI_API_KEY=stolen',
      nodes: reactDoc.nodes.map((n) =>
        n.kind === 'model'
          ? { ...n, model: { provider: 'openai', baseUrl: 'http://e\nEVIL=1', model: 'm\rEVIL=2' } }
          : n,
      ),
    })
    const files = emitProject(hostile)
    for (const path of ['.env', '.env.example', 'python/.env', 'python/.env.example'])
      expect(file(files, path)).toBe(file(emitProject(openai), path))
    expect(file(files, 'README.md')).not.toMatch(/^EVIL=/m)
  })
})
