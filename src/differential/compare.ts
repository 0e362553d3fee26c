/**
 * Helpers shared by the differential tests: loading the case files and canonicalizing
 * reports so that generated message ids compare equal across runtimes.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RunReport } from '../core/report'
import type { DiffCase, GraphDocumentJson, InvalidCase } from './oracle'

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

/**
 * Replaces every UUID-shaped string (generated message ids, also where an error message
 * quotes one) by `#1`, `#2`… in order of first appearance. The walk visits object keys in
 * sorted order (so `checkpoints` oldest first, then `error`, then `values`), which makes the
 * numbering independent of the key order each runtime happens to build its objects in.
 * Ids written by case code are never UUID-shaped, so they are kept.
 */
export function canonicalizeReport(r: RunReport): RunReport {
  const labels = new Map<string, string>()
  visitStrings(r, (s) => {
    for (const uuid of s.match(UUID) ?? []) {
      const key = uuid.toLowerCase()
      if (!labels.has(key)) labels.set(key, `#${labels.size + 1}`)
    }
  })
  if (labels.size === 0) return r
  const relabel = (s: string) => s.replace(UUID, (uuid) => labels.get(uuid.toLowerCase()) ?? uuid)
  return mapStrings(r, relabel) as RunReport
}

function visitStrings(v: unknown, visit: (s: string) => void): void {
  if (typeof v === 'string') visit(v)
  else if (Array.isArray(v)) for (const item of v) visitStrings(item, visit)
  else if (typeof v === 'object' && v !== null) {
    const record = v as Record<string, unknown>
    for (const key of Object.keys(record).sort()) visitStrings(record[key], visit)
  }
}

function mapStrings(v: unknown, map: (s: string) => string): unknown {
  if (typeof v === 'string') return map(v)
  if (Array.isArray(v)) return v.map((item) => mapStrings(item, map))
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, mapStrings(item, map)]))
  }
  return v
}

function loadDir<T extends DiffCase>(dir: string): T[] {
  const path = fileURLToPath(new URL(dir, import.meta.url))
  return readdirSync(path)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ ...(JSON.parse(readFileSync(join(path, file), 'utf8')) as T), file }))
}

/** All cases of `src/differential/cases`, sorted by file name; `file` holds the name. */
export function loadCases(): DiffCase[] {
  return loadDir<DiffCase>('./cases/')
}

/** All graphs of `src/differential/invalid` (LangGraph refuses them), sorted by file name. */
export function loadInvalidCases(): InvalidCase[] {
  return loadDir<InvalidCase>('./invalid/')
}

/** Whether a document has subgraphs (a `subgraphs` map with at least one graph). */
export function hasSubgraphs(doc: Pick<GraphDocumentJson, 'subgraphs'>): boolean {
  return Object.keys(doc.subgraphs ?? {}).length > 0
}
