/**
 * The headless command line:
 *   superstep run <graph.json> [--input '<json>'] [--recursion-limit N] [--config '<json>']
 *   superstep stream <graph.json> [--input '<json>'] [--mode values,updates,…] [--subgraphs]
 *                    [--config '<json>'] [--recursion-limit N]
 *   superstep session <graph.json> <ops.json> [--recursion-limit N]
 *   superstep validate <graph.json>
 *   superstep export --lang ts|py|project <graph.json> [--out DIR | --out FILE.zip]
 * `run` and `session` print one JSON report and exit 0 when the graph ran (even if it
 * raised), 2 when a file is invalid. `stream` prints one JSON line per chunk, as LangGraph.js's
 * `graph.stream()` yields it (one `--mode`: the bare chunk; several: `[mode, chunk]`; with
 * `--subgraphs`: the namespace first), and exits 3 when the graph raised, the error as a JSON
 * line on stderr after the chunks. `--config` is the run's `config.configurable`. `validate` prints the problems and exits 2 when there
 * are errors. `export` prints the module (or, for a project, each file under a header) or
 * writes it into DIR (a project as a tree, or as the app's zip when the path ends in .zip).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { emitProject, projectSlug, type ProjectFile } from '../codegen/project'
import { emitPython } from '../codegen/python'
import { emitTypeScript } from '../codegen/typescript'
import { zipProject } from '../codegen/zip'
import type { GraphSpec } from '../core/graph/schema'
import { parseArgs } from 'node:util'
import { systemEnv } from '../lib/env'
import { formatIssue, type GraphIssue } from '../core/graph/issues'
import { parseGraph } from '../core/graph/validate'
import { runSession, writeRunReport } from '../core/run'
import {
  STREAM_MODES,
  isStreamMode,
  streamGraph,
  type StreamCallOptions,
  type StreamMode,
} from '../core/stream'
import { errorToJson } from '../core/errorJson'
import { parseSessionOps } from './sessionOps'

const USAGE = `Usage:
  npm run -s cli -- run <graph.json> [--input '<json>'] [--recursion-limit N] [--config '<json>']
  npm run -s cli -- stream <graph.json> [--input '<json>'] [--mode values,updates,...] [--subgraphs] [--config '<json>'] [--recursion-limit N]
  npm run -s cli -- session <graph.json> <ops.json> [--recursion-limit N]
  npm run -s cli -- validate <graph.json>
  npm run -s cli -- export --lang ts|py|project <graph.json> [--out DIR | --out FILE.zip]`

export interface CliIO {
  stdout: (s: string) => void
  stderr: (s: string) => void
}

/** Runs the CLI and returns the exit code (kept apart from `process` for tests). */
export async function main(argv: string[], io: CliIO): Promise<number> {
  let args: ReturnType<typeof parse>
  try {
    args = parse(argv)
  } catch (e) {
    io.stderr(`${(e as Error).message}\n${USAGE}\n`)
    return 1
  }
  const [command, file, ...rest] = args.positionals
  const arity = { run: 0, stream: 0, validate: 0, session: 1, export: 0 }[command ?? '']
  if (!command || !file || arity === undefined || rest.length !== arity) {
    io.stderr(`${USAGE}\n`)
    return 1
  }
  const doc = await readDocument(file)
  if ('problem' in doc) {
    io.stderr(`${file}: ${doc.problem}\n`)
    return 2
  }
  const parsed = parseGraph(doc.value)
  const print = (issues: GraphIssue[]) =>
    issues.forEach((i) => io.stderr(`${file}: ${formatIssue(i)}\n`))
  if (command === 'validate') {
    print(parsed.issues)
    if (parsed.ok) io.stdout(`${file}: valid${parsed.issues.length ? ' (with warnings)' : ''}\n`)
    return parsed.ok ? 0 : 2
  }
  if (!parsed.ok) {
    print(parsed.issues)
    return 2
  }
  if (command === 'export') {
    const text = `${JSON.stringify(doc.value, null, 2)}\n`
    return exportGraph(io, parsed.spec, text, args.values.lang, args.values.out)
  }
  const limit = args.values['recursion-limit']
  const recursionLimit = limit === undefined ? undefined : Number(limit)
  if (recursionLimit !== undefined && !(Number.isInteger(recursionLimit) && recursionLimit > 0)) {
    io.stderr(`--recursion-limit must be a positive integer, got ${limit}\n`)
    return 2
  }
  if (command === 'session') {
    const opsFile = rest[0] as string
    const opsDoc = await readDocument(opsFile)
    const ops = 'problem' in opsDoc ? opsDoc : parseSessionOps(opsDoc.value)
    if ('problem' in ops) {
      io.stderr(`${opsFile}: ${ops.problem}\n`)
      return 2
    }
    return report(io, file, () =>
      runSession(parsed.spec, ops.ops, { recursionLimit, env: systemEnv }),
    )
  }
  const input = jsonOption(io, '--input', args.values.input, {})
  const configurable = jsonOption(io, '--config', args.values.config, undefined)
  if (input === BAD || configurable === BAD) return 2
  if (configurable !== undefined && !isRecord(configurable)) {
    io.stderr(`--config must be a JSON object (the run's configurable settings)\n`)
    return 2
  }
  if (command === 'stream') {
    const modes = (args.values.mode ?? 'updates').split(',').map((m) => m.trim())
    const unknown = modes.filter((m) => !isStreamMode(m))
    if (unknown.length > 0 || modes.length === 0) {
      io.stderr(`--mode takes ${STREAM_MODES.join(', ')}; got ${unknown.join(', ')}\n`)
      return 2
    }
    return streamChunks(io, file, parsed.spec, input, {
      streamMode: modes.length === 1 ? (modes[0] as StreamMode) : (modes as StreamMode[]),
      subgraphs: args.values.subgraphs === true,
      ...(recursionLimit !== undefined && { recursionLimit }),
      ...(configurable !== undefined && { configurable }),
    })
  }
  // The report is written as it goes: a long run's history is never held whole.
  try {
    await writeRunReport(
      parsed.spec,
      {
        input,
        recursionLimit,
        env: systemEnv,
        ...(configurable !== undefined && { configurable }),
      },
      (text) => io.stdout(text),
    )
  } catch (e) {
    io.stderr(`${file}: ${(e as Error).message}\n`)
    return 2
  }
  return 0
}

const BAD = Symbol('bad option')

/** A JSON option's value (`fallback` when absent), or BAD once the problem is printed. */
function jsonOption(io: CliIO, name: string, text: string | undefined, fallback: unknown) {
  if (text === undefined) return fallback
  try {
    return JSON.parse(text) as unknown
  } catch (e) {
    io.stderr(`${name} is not JSON: ${(e as Error).message}\n`)
    return BAD
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** `stream`: one JSON line per chunk; the graph's error (exit 3) as a JSON line on stderr. */
async function streamChunks(
  io: CliIO,
  file: string,
  spec: GraphSpec,
  input: unknown,
  options: StreamCallOptions,
): Promise<number> {
  let chunks: AsyncGenerator<unknown>
  try {
    chunks = streamGraph(spec, input, { env: systemEnv, ...options })
  } catch (e) {
    io.stderr(`${file}: ${(e as Error).message}\n`)
    return 2
  }
  try {
    for await (const chunk of chunks) io.stdout(`${JSON.stringify(chunk)}\n`)
  } catch (e) {
    io.stderr(`${JSON.stringify({ error: errorToJson(e) })}\n`)
    return 3
  }
  return 0
}

/** Prints a run's report; code that cannot be compiled (not a function) is a file problem. */
async function report(io: CliIO, file: string, run: () => Promise<unknown>): Promise<number> {
  let result
  try {
    result = await run()
  } catch (e) {
    io.stderr(`${file}: ${(e as Error).message}\n`)
    return 2
  }
  io.stdout(`${JSON.stringify(result, null, 2)}\n`)
  return 0
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      input: { type: 'string' },
      'recursion-limit': { type: 'string' },
      lang: { type: 'string' },
      out: { type: 'string' },
      mode: { type: 'string' },
      subgraphs: { type: 'boolean' },
      config: { type: 'string' },
    },
  })
}

/** `export`: the same files the app's Export dialog gives. */
async function exportGraph(
  io: CliIO,
  spec: GraphSpec,
  graphText: string,
  lang: string | undefined,
  out: string | undefined,
): Promise<number> {
  const slug = projectSlug(spec.name)
  let files: ProjectFile[]
  if (lang === 'ts') files = [{ path: `${slug}.ts`, text: emitTypeScript(spec) }]
  else if (lang === 'py') files = [{ path: `${slug}.py`, text: emitPython(spec) }]
  else if (lang === 'project') files = emitProject(spec, graphText)
  else {
    io.stderr(`--lang must be ts, py or project, got ${lang ?? 'nothing'}\n${USAGE}\n`)
    return 1
  }
  if (out === undefined) {
    const only = files.length === 1 ? files[0] : undefined
    if (only) io.stdout(only.text)
    else for (const f of files) io.stdout(`==> ${f.path} <==\n${f.text}\n`)
    return 0
  }
  if (out.endsWith('.zip')) {
    await mkdir(dirname(out), { recursive: true })
    await writeFile(out, zipProject(slug, files))
    io.stderr(`wrote ${out}\n`)
    return 0
  }
  for (const f of files) {
    const path = join(out, f.path)
    await mkdir(dirname(path), { recursive: true })
    await writeFile(path, f.text)
    io.stderr(`wrote ${path}\n`)
  }
  return 0
}

async function readDocument(file: string): Promise<{ value: unknown } | { problem: string }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (e) {
    return { problem: `cannot read the file (${(e as NodeJS.ErrnoException).code ?? 'error'})` }
  }
  try {
    return { value: JSON.parse(text) as unknown }
  } catch (e) {
    return { problem: `not a JSON document: ${(e as Error).message}` }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
  }).then((code) => {
    process.exitCode = code
  })
}
