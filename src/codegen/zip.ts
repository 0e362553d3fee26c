import { strToU8, zipSync, type Zippable } from 'fflate'
import type { ProjectFile } from './project'

/** Every entry's time: fixed, so the same project always zips to the same bytes. */
const MTIME = new Date(Date.UTC(2000, 0, 1))

/** The project as a zip archive under one top folder (`<folder>/README.md`, …). */
export function zipProject(folder: string, files: readonly ProjectFile[]): Uint8Array {
  const tree: Zippable = {}
  for (const f of files) tree[`${folder}/${f.path}`] = [strToU8(f.text), { mtime: MTIME }]
  return zipSync(tree, { level: 6 })
}
