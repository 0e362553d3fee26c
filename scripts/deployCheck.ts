/**
 * `npm run test:deploy`: the exported LangGraph.js projects run unmodified on LangGraph's own
 * server and do what Superstep does, checkpoint for checkpoint.
 *
 * For each template below: export the project (what the Export dialog and `cli export --lang
 * project` write), install its dependencies as its package.json lists them (once, shared by
 * every project, whose package.json files must agree), start `npx @langchain/langgraph-cli dev`
 * in the project on a free loopback port (LangGraph's in-memory API server, no Docker), drive
 * it with `@langchain/langgraph-sdk` (create a thread, run, resume with a Command, read the
 * history) and compare the history with Superstep's `session` report of the same ops: step,
 * source, next, parent, values and pending interrupts of every checkpoint.
 *
 * Needs the npm registry (the install). Takes about two minutes, most of it the install.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { isDeepStrictEqual } from 'node:util'
import { emitProject, projectSlug } from '../src/codegen/project'
import { parseGraph } from '../src/core/graph/validate'
import { runSession, type SessionOp } from '../src/core/run'
import { createCountingEnv } from '../src/lib/env'
import { TEMPLATES } from '../src/templates'
import { canonicalizeReport } from '../src/differential/compare'
import type { RunReport } from '../src/core/report'

/** The templates checked, and the ops run on each (invoke first; resume answers `interrupt()`). */
const CHECKS: { template: string; ops: SessionOp[] }[] = [
  { template: 'counter', ops: [{ op: 'invoke', input: {} }] },
  {
    template: 'approval',
    ops: [
      { op: 'invoke', input: { request: 'a haiku about checkpoints' } },
      { op: 'resume', value: false },
      { op: 'resume', value: true },
    ],
  },
  {
    // Subgraphs: two worker agents, each its own StateGraph added as a node.
    template: 'supervisor',
    ops: [
      {
        op: 'invoke',
        input: { messages: [{ role: 'user', content: 'Write a short note about owls.' }] },
      },
    ],
  },
  {
    template: 'react-agent',
    ops: [
      {
        op: 'invoke',
        input: { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] },
      },
    ],
  },
]

interface Row {
  step: number
  source: string
  next: string[]
  parent: number | null
  values: unknown
  interrupts: unknown[]
}

const keep = process.argv.includes('--keep')
const root = mkdtempSync(join(tmpdir(), 'superstep-deploy-'))
const servers: ChildProcess[] = []
process.on('exit', () => {
  for (const s of servers) killTree(s)
  if (!keep) rmSync(root, { recursive: true, force: true })
})

function log(s: string) {
  console.log(`[test:deploy] ${s}`)
}

function killTree(p: ChildProcess) {
  if (p.pid === undefined || p.exitCode !== null) return
  try {
    process.kill(-p.pid, 'SIGTERM')
  } catch {
    p.kill('SIGTERM')
  }
}

/** A free loopback port (the OS picks it; the server binds it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

/** Writes the exported project of a template into `root/<slug>`; returns its folder and graph id. */
function exportProject(templateId: string) {
  const t = TEMPLATES.find((x) => x.id === templateId)
  if (!t) throw new Error(`no template ${templateId}`)
  const parsed = parseGraph(t.doc)
  if (!parsed.ok) throw new Error(`template ${templateId} does not validate`)
  const dir = join(root, templateId)
  for (const f of emitProject(parsed.spec)) {
    mkdirSync(dirname(join(dir, f.path)), { recursive: true })
    writeFileSync(join(dir, f.path), f.text)
  }
  const langgraphJson = JSON.parse(readFileSync(join(dir, 'langgraph.json'), 'utf8')) as {
    graphs: Record<string, string>
  }
  const graphId = Object.keys(langgraphJson.graphs)[0] ?? projectSlug(parsed.spec.name)
  return { dir, graphId, spec: parsed.spec }
}

/** One `npm install` of the dependencies every exported package.json lists (they must agree). */
function install(dirs: string[]) {
  const manifests = dirs.map((d) => {
    const { dependencies, devDependencies } = JSON.parse(
      readFileSync(join(d, 'package.json'), 'utf8'),
    ) as { dependencies: unknown; devDependencies: unknown }
    return { dependencies, devDependencies }
  })
  for (const m of manifests.slice(1))
    if (!isDeepStrictEqual(m, manifests[0]))
      throw new Error('the exported projects list different dependencies')
  const shared = join(root, 'deps')
  mkdirSync(shared)
  writeFileSync(
    join(shared, 'package.json'),
    JSON.stringify({ name: 'deps', private: true, type: 'module', ...manifests[0] }),
  )
  log(`npm install in ${shared} (the exported package.json's dependencies)`)
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: shared,
    stdio: 'inherit',
  })
  if (r.status !== 0) throw new Error(`npm install failed (${r.status})`)
  for (const d of dirs) symlinkSync(join(shared, 'node_modules'), join(d, 'node_modules'), 'dir')
  return shared
}

/** Starts LangGraph's dev server in a project and waits until it answers `/ok`. */
async function startServer(dir: string): Promise<{ url: string; output: () => string }> {
  const port = await freePort()
  let out = ''
  const p = spawn(
    'npx',
    ['--no-install', '@langchain/langgraph-cli', 'dev', '--port', String(port), '--no-browser'],
    { cwd: dir, detached: true, env: { ...process.env, LANGSMITH_TRACING: 'false' } },
  )
  servers.push(p)
  p.stdout?.on('data', (d: Buffer) => (out += d.toString()))
  p.stderr?.on('data', (d: Buffer) => (out += d.toString()))
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 240; i++) {
    if (p.exitCode !== null) throw new Error(`the dev server exited (${p.exitCode}):\n${out}`)
    try {
      if ((await fetch(`${url}/ok`)).ok) return { url, output: () => out }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`the dev server did not answer on ${url} within 120 s:\n${out}`)
}

/** A message as both sides are compared: type, content, name, tool calls, tool call id. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain)
  if (v === null || typeof v !== 'object') return v
  const o = v as Record<string, unknown>
  if (
    typeof o.type === 'string' &&
    'content' in o &&
    ['human', 'ai', 'tool', 'system'].includes(o.type)
  ) {
    const calls = o.tool_calls as { name: string; args: unknown; id?: string }[] | undefined
    return {
      type: o.type,
      content: o.content,
      ...(o.id !== undefined && { id: o.id }),
      ...(o.name ? { name: o.name } : {}),
      ...(calls?.length
        ? { tool_calls: calls.map(({ name, args, id }) => ({ name, args, id })) }
        : {}),
      ...(o.tool_call_id ? { tool_call_id: o.tool_call_id } : {}),
    }
  }
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, plain(x)]))
}

/** Message ids are runtime-made (uuids on both sides, numbered by first appearance). */
const canonical = (rows: Row[]) =>
  (
    canonicalizeReport({ checkpoints: rows } as unknown as RunReport) as unknown as {
      checkpoints: Row[]
    }
  ).checkpoints

interface SdkClient {
  threads: {
    create(): Promise<{ thread_id: string }>
    getHistory(id: string, o: { limit: number }): Promise<SdkState[]>
  }
  runs: {
    wait(
      thread: string,
      assistant: string,
      o: { input?: unknown; command?: unknown },
    ): Promise<unknown>
  }
}
interface SdkState {
  values: unknown
  next: string[]
  metadata: { step: number; source: string }
  checkpoint: { checkpoint_id: string }
  parent_checkpoint?: { checkpoint_id?: string } | null
  tasks: { interrupts: { value: unknown }[] }[]
}

async function onServer(client: SdkClient, graphId: string, ops: SessionOp[]): Promise<Row[]> {
  const { thread_id } = await client.threads.create()
  for (const op of ops) {
    if (op.op === 'invoke') await client.runs.wait(thread_id, graphId, { input: op.input })
    else if (op.op === 'resume' && 'value' in op)
      await client.runs.wait(thread_id, graphId, { command: { resume: op.value } })
    else throw new Error(`test:deploy does not drive op ${op.op}`)
  }
  const history = (await client.threads.getHistory(thread_id, { limit: 1000 })).reverse()
  const index = new Map(history.map((s, i) => [s.checkpoint.checkpoint_id, i]))
  return history.map((s) => ({
    step: s.metadata.step,
    source: s.metadata.source,
    next: [...s.next],
    parent: s.parent_checkpoint?.checkpoint_id
      ? (index.get(s.parent_checkpoint.checkpoint_id) ?? null)
      : null,
    values: plain(s.values),
    interrupts: s.tasks.flatMap((t) => t.interrupts.map((i) => plain(i.value))),
  }))
}

async function main() {
  const projects = CHECKS.map((c) => ({ ...c, ...exportProject(c.template) }))
  const shared = install(projects.map((p) => p.dir))
  const sdkEntry = join(shared, 'node_modules', '@langchain', 'langgraph-sdk', 'dist', 'index.js')
  const { Client } = (await import(pathToFileURL(sdkEntry).href)) as {
    Client: new (o: { apiUrl: string }) => SdkClient
  }
  let failed = 0
  for (const p of projects) {
    const started = Date.now()
    const server = await startServer(p.dir)
    log(`${p.template}: server up in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    const theirs = canonical(await onServer(new Client({ apiUrl: server.url }), p.graphId, p.ops))
    const ours = await runSession(p.spec, p.ops, { env: createCountingEnv() })
    const mine = canonical(
      ours.checkpoints.map(({ step, source, next, parent, values, interrupts }) => ({
        step,
        source,
        next,
        parent,
        values: plain(JSON.parse(JSON.stringify(values))),
        interrupts: plain(JSON.parse(JSON.stringify(interrupts))) as unknown[],
      })),
    )
    if (isDeepStrictEqual(theirs, mine)) {
      log(`${p.template}: ${mine.length} checkpoints agree with Superstep's session`)
    } else {
      failed++
      log(`${p.template}: DIFFERS from Superstep's session`)
      console.log('server:   ', JSON.stringify(theirs, null, 1))
      console.log('superstep:', JSON.stringify(mine, null, 1))
    }
    killTree(servers[servers.length - 1] as ChildProcess)
  }
  if (failed) {
    log(`${failed} of ${projects.length} projects differ`)
    process.exit(1)
  }
  log(`all ${projects.length} exported projects run on LangGraph's dev server as in Superstep`)
  process.exit(0)
}

main().catch((e: unknown) => {
  console.error('[test:deploy] failed:', e instanceof Error ? e.message : e)
  process.exit(1)
})
