/**
 * Runs differential sessions on real LangGraph.js.
 *   npx tsx scripts/session-oracle.ts src/differential/sessions/01-x.json  → the SessionReport
 *   npx tsx scripts/session-oracle.ts --all                                → one line per session:
 *     file, status, error code (and the caught errors of continueOnError ops), #checkpoints,
 *     then every checkpoint as [step,source,next]
 */
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { loadSessions, runSessionOnLangGraph } from '../src/differential/session'
import type { SessionCase, SessionReport } from '../src/differential/session'

function readSession(path: string): SessionCase {
  return { ...(JSON.parse(readFileSync(path, 'utf8')) as SessionCase), file: basename(path) }
}

function summary(file: string, r: SessionReport): string {
  const code = r.error ? (r.error.code ?? r.error.name) : '-'
  const caught = r.opErrors.map((e) => `op${e.op}:${e.error.code ?? e.error.name}`).join(',')
  const steps = r.checkpoints.map((c) => JSON.stringify([c.step, c.source, c.next])).join(' ')
  return `${file}\t${r.status}\t${code}${caught ? ` (${caught})` : ''}\t${r.checkpoints.length}\t${steps}`
}

async function printAll(): Promise<void> {
  for (const c of loadSessions())
    console.log(summary(c.file ?? '?', await runSessionOnLangGraph(c)))
}

async function printOne(path: string): Promise<void> {
  console.log(JSON.stringify(await runSessionOnLangGraph(readSession(path)), null, 2))
}

const [arg] = process.argv.slice(2)
if (arg === undefined) {
  console.error('usage: tsx scripts/session-oracle.ts <session.json> | --all')
  process.exitCode = 2
} else if (arg === '--all') await printAll()
else await printOne(arg)
