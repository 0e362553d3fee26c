/**
 * The JavaScript a built page loads before it can run: its module scripts and the
 * modulepreloads Vite wrote beside them (the entry's static imports, all of them), with
 * their gzip sizes (level 9, as a static host would serve them).
 *
 *   Run: npx vite build --outDir /tmp/dist-x && npx tsx bench/initialJs.ts /tmp/dist-x
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = process.argv[2] ?? 'dist'
  const files = initialJs(dist, process.argv[3])
  for (const f of files)
    console.log(`${kB(f.gzip).padStart(7)} kB gz  ${kB(f.bytes).padStart(7)} kB  ${f.file}`)
  const total = files.reduce((s, f) => s + f.gzip, 0)
  console.log(`${kB(total).padStart(7)} kB gz  total, ${files.length} files`)
}
