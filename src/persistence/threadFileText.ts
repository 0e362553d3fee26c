/**
 * The thread file's text in pieces, so a worker can write a big thread a page of checkpoints
 * at a time (and hand the page one Blob) instead of stringifying one giant object. Joined,
 * the pieces are exactly `JSON.stringify({ ...file, graph }, null, 2) + '\n'`, the text the
 * page used to write. Pure: no Dexie, no DOM.
 */

/** Indentation of an array item at the file's depth 2 (`checkpoints[i]`, `taskRuns[i]`). */
const ITEM = '    '

/** `value` as `JSON.stringify(value, null, 2)` would print it `depth` levels deep. */
function nested(value: unknown, indent: string): string {
  return (JSON.stringify(value, null, 2) ?? 'null').replace(/\n/g, `\n${indent}`)
}

/** One item of a top-level array of the file (a checkpoint tuple, a task run). */
export function itemText(item: unknown): string {
  return nested(item, ITEM)
}

/** The file's head, up to the first checkpoint (or `[]` when there is none). */
export function headText(o: { threadId: string; name: string; empty: boolean }): string {
  return (
    `{\n  "superstepThread": 1,\n  "threadId": ${JSON.stringify(o.threadId)},\n` +
    `  "name": ${JSON.stringify(o.name)},\n  "checkpoints": ${o.empty ? '[]' : `[\n${ITEM}`}`
  )
}

/** What goes between two items of one array. */
export const ITEM_SEPARATOR = `,\n${ITEM}`

/**
 * The rest of the file after the checkpoints: the task runs (items made by `itemText`) and
 * the run settings and the graph document (each left out when undefined, as JSON.stringify
 * leaves it out).
 */
export function tailParts(o: {
  hadCheckpoints: boolean
  taskRuns: string[]
  graph: unknown
  /** The subgraphs' checkpoints (items made by `itemText`); none: the key is left out. */
  subgraphCheckpoints?: string[]
  /** The thread's run settings (left out when undefined). */
  settings?: unknown
}): string[] {
  const parts = [o.hadCheckpoints ? '\n  ],\n  "taskRuns": ' : ',\n  "taskRuns": ']
  if (!o.taskRuns.length) parts.push('[]')
  else {
    parts.push(`[\n${ITEM}`)
    o.taskRuns.forEach((r, i) => parts.push(i ? ITEM_SEPARATOR : '', r))
    parts.push('\n  ]')
  }
  const inner = o.subgraphCheckpoints ?? []
  if (inner.length) {
    parts.push(',\n  "subgraphCheckpoints": [\n' + ITEM)
    inner.forEach((t, i) => parts.push(i ? ITEM_SEPARATOR : '', t))
    parts.push('\n  ]')
  }
  if (o.settings !== undefined) parts.push(',\n  "settings": ', nested(o.settings, '  '))
  if (o.graph !== undefined) parts.push(',\n  "graph": ', nested(o.graph, '  '))
  parts.push('\n}\n')
  return parts
}
