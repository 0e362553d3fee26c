/**
 * Runs differential cases on real LangGraph.js.
 *   npx tsx scripts/oracle.ts src/differential/cases/01-x.json   → the RunReport, pretty
 *   npx tsx scripts/oracle.ts --all                              → one line per case
 *   npx tsx scripts/oracle.ts --brief <case.json>…               → one line per case, with
 *                                                                  the `next` chain and values
 */
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { loadCases, loadInvalidCases } from '../src/differential/compare'
import { compileOnLangGraph, runOnLangGraph } from '../src/differential/oracle'
import type { DiffCase } from '../src/differential/oracle'
import type { RunReport } from '../src/core/report'

function readCase(path: string): DiffCase {
  return { ...(JSON.parse(readFileSync(path, 'utf8')) as DiffCase), file: basename(path) }
}

function summary(file: string, r: RunReport): string {
  const code = r.error ? (r.error.code ?? r.error.name) : '-'
  return `${file}\t${r.status}\t${code}\t${r.checkpoints.length}`
}

function brief(file: string, r: RunReport): string {
  const chain = r.checkpoints.map((c) => `[${c.next.join(',')}]`).join(' ')
  const error = r.error ? `\n    ${r.error.name}: ${r.error.message.split('\n')[0] ?? ''}` : ''
  return `${summary(file, r)}\n    ${chain}\n    ${JSON.stringify(r.values)}${error}`
}

async function printAll(): Promise<void> {
  for (const c of loadCases()) console.log(summary(c.file ?? '?', await runOnLangGraph(c)))
  for (const c of loadInvalidCases()) {
    const message = compileOnLangGraph(c.graph)?.split('\n')[0] ?? 'COMPILED (expected an error)'
    console.log(`invalid/${c.file ?? '?'}\t${c.invalid}\t${message}`)
  }
}

async function printBrief(paths: string[]): Promise<void> {
  for (const path of paths) {
    const c = readCase(path)
    if (c.invalid !== undefined) {
      console.log(`${c.file ?? '?'}\t${c.invalid}\t${compileOnLangGraph(c.graph) ?? 'COMPILED'}`)
    } else console.log(brief(c.file ?? '?', await runOnLangGraph(c)))
  }
}

async function printOne(path: string): Promise<void> {
  const c = readCase(path)
  if (c.invalid !== undefined) {
    console.log(JSON.stringify({ invalid: c.invalid, compileError: compileOnLangGraph(c.graph) }))
  } else console.log(JSON.stringify(await runOnLangGraph(c), null, 2))
}

const [arg, ...rest] = process.argv.slice(2)
if (arg === undefined) {
  console.error('usage: tsx scripts/oracle.ts <case.json> | --all | --brief <case.json>…')
  process.exitCode = 2
} else if (arg === '--all') await printAll()
else if (arg === '--brief') await printBrief(rest)
else await printOne(arg)
