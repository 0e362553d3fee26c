/**
 * The JavaScript a built page loads before it can run: its module scripts and the
 * modulepreloads Vite wrote beside them (the entry's static imports, all of them), with
 * their gzip sizes (level 9, as a static host would serve them).
 *
 *   Run: npx vite build --outDir /tmp/dist-x && npx tsx bench/initialJs.ts /tmp/dist-x
 *   What is in them, by package and by src/ file (from the source maps the build writes):
 *        npx tsx bench/initialJs.ts /tmp/dist-x --by-source
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

export interface InitialFile {
  file: string
  bytes: number
  gzip: number
}

/** The eager JavaScript of `page` in `dist`, biggest first. */
export function initialJs(dist: string, page = 'index.html'): InitialFile[] {
  const html = readFileSync(join(dist, page), 'utf8')
  const urls = new Set<string>()
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const isModule = /^<script/i.test(tag) && /type="module"/i.test(tag)
    const isPreload = /^<link/i.test(tag) && /rel="modulepreload"/i.test(tag)
    const url = /(?:src|href)="([^"]+)"/i.exec(tag)?.[1]
    if ((isModule || isPreload) && url) urls.add(url)
  }
  return [...urls]
    .map((url) => {
      const source = readFileSync(join(dist, url.replace(/^\//, '')))
      return { file: url, bytes: source.length, gzip: gzipSync(source, { level: 9 }).length }
    })
    .sort((a, b) => b.gzip - a.gzip)
}

export const kB = (bytes: number) => (bytes / 1024).toFixed(1)

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** The generated offset and source index of each segment of a source map's `mappings`. */
function mappedOffsets(code: string, mappings: string): [offset: number, source: number][] {
  const out: [number, number][] = []
  let lineStart = 0
  let source = 0
  for (const line of mappings.split(';')) {
    let column = 0
    for (const segment of line.split(',')) {
      if (!segment) continue
      const fields: number[] = []
      let value = 0
      let shift = 0
      for (const ch of segment) {
        const digit = BASE64.indexOf(ch)
        value += (digit & 31) << shift
        if (digit & 32) shift += 5
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1)
          value = shift = 0
        }
      }
      column += fields[0] ?? 0
      // A segment with no source is generated code (the bundler's own): unmapped, -1.
      if (fields.length > 1) source += fields[1]!
      out.push([lineStart + column, fields.length > 1 ? source : -1])
    }
    const next = code.indexOf('\n', lineStart)
    lineStart = next === -1 ? code.length : next + 1
  }
  return out.sort((a, b) => a[0] - b[0])
}

/** A source's group: its npm package, or its path under src/ (else as the map names it). */
const groupOf = (source: string) =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source)?.[1] ??
  /(?:^|\/)src\/(.*)$/.exec(source)?.[1] ??
  source

/**
 * What the initial files hold, by npm package and by src/ file: each group's share of the
 * gzip total (its code gzipped alone, scaled so the shares add up to the files' gzip size).
 * Code no source map segment names is counted as "(unmapped)".
 */
export function initialJsBySource(dist: string, page = 'index.html') {
  const groups = new Map<string, string[]>()
  let total = 0
  for (const f of initialJs(dist, page)) {
    total += f.gzip
    const path = join(dist, f.file.replace(/^\//, ''))
    const code = readFileSync(path, 'utf8')
    let map: { sources: string[]; mappings: string }
    try {
      map = JSON.parse(readFileSync(`${path}.map`, 'utf8')) as typeof map
    } catch {
      groups.set(f.file, [...(groups.get(f.file) ?? []), code])
      continue
    }
    const offsets = mappedOffsets(code, map.mappings)
    const add = (group: string, text: string) =>
      groups.set(group, [...(groups.get(group) ?? []), text])
    add('(unmapped)', code.slice(0, offsets[0]?.[0] ?? code.length))
    offsets.forEach(([at, source], i) =>
      add(
        groupOf(map.sources[source] ?? '(unmapped)'),
        code.slice(at, offsets[i + 1]?.[0] ?? code.length),
      ),
    )
  }
  const rows = [...groups].map(([group, parts]) => {
    const text = parts.join('')
    return { group, bytes: text.length, gzip: gzipSync(text, { level: 9 }).length }
  })
  const sum = rows.reduce((s, r) => s + r.gzip, 0) || 1
  return rows.map((r) => ({ ...r, gzip: (r.gzip * total) / sum })).sort((a, b) => b.gzip - a.gzip)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dist = 'dist', page] = process.argv.slice(2).filter((a) => !a.startsWith('--'))
  const files = initialJs(dist, page)
  for (const f of files)
    console.log(`${kB(f.gzip).padStart(7)} kB gz  ${kB(f.bytes).padStart(7)} kB  ${f.file}`)
  const total = files.reduce((s, f) => s + f.gzip, 0)
  console.log(`${kB(total).padStart(7)} kB gz  total, ${files.length} files`)
  if (process.argv.includes('--by-source')) {
    console.log('\nBy package and src/ file (each gzipped alone, scaled to the total):')
    for (const r of initialJsBySource(dist, page))
      if (r.gzip >= 512)
        console.log(`${kB(r.gzip).padStart(7)} kB gz  ${kB(r.bytes).padStart(7)} kB  ${r.group}`)
  }
}
