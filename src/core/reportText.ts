import type { CheckpointReport } from './report'

/** How a batch comes out of `JSON.stringify([batch], null, 2)` around its items. */
const BATCH_HEAD = '[\n  [\n    '
const BATCH_TAIL = '\n  ]\n]'
/** Entries stringified in one call, at most. */
const MAX_BATCH = 128

/**
 * The `checkpoints` array of a report as the whole report's `JSON.stringify(report, null, 2)`
 * writes it, made as the entries come, for a report written as it goes (writeRunReport).
 *
 * Entries are stringified in batches, each inside two arrays so that JSON.stringify indents
 * them as items two levels deep, and cut out: one call per batch and no pass to re-indent.
 * A batch holds as many entries as fill what is left of the piece being made (at most
 * MAX_BATCH). The text is kept in flat pieces of about `chunk` characters: joined, not
 * concatenated with +=, which would keep a tree of every entry's strings, several times
 * their size, alive until written.
 *
 * A batch keeps its entries until it is stringified: their values must not change meanwhile
 * (ReportSaver's never do: it replaces a stored value, never changes it).
 */
export class CheckpointsText {
  private readonly pieces: string[] = []
  private batch: CheckpointReport[] = []
  private batchSize = 1
  /** The batches' text of the piece being made, and its length. */
  private texts: string[] = []
  private length = 0

  constructor(private readonly chunk: number) {}

  add(entry: CheckpointReport): void {
    this.batch.push(entry)
    if (this.batch.length >= this.batchSize) this.flush()
  }

  /** The array's text in pieces, the last one closing it; no more entries after this. */
  end(): string[] {
    this.flush()
    const none = this.pieces.length === 0 && this.texts.length === 0
    this.pieces.push(`${this.texts.join('')}${none ? '[]' : '\n  ]'}`)
    return this.pieces
  }

  private flush(): void {
    const count = this.batch.length
    if (count === 0) return
    const json = JSON.stringify([this.batch], null, 2)
    const text = json.slice(BATCH_HEAD.length, json.length - BATCH_TAIL.length)
    const first = this.pieces.length === 0 && this.texts.length === 0
    this.texts.push(first ? '[\n    ' : ',\n    ', text)
    this.batch = []
    this.length += text.length + 6
    if (this.length >= this.chunk) {
      this.pieces.push(this.texts.join(''))
      this.texts = []
      this.length = 0
    }
    const perEntry = text.length / count
    this.batchSize = Math.max(
      1,
      Math.min(MAX_BATCH, Math.floor((this.chunk - this.length) / perEntry)),
    )
  }
}
