import type { CommitStatus } from '../persistence/checkpointBatch'
import type { WorkerEvent } from './protocol'

/**
 * Holds a run's events from a `checkpoint_saved` whose checkpoint is not committed yet (its
 * saver commits in batches) until its batch commits, so the page never shows a checkpoint as
 * saved before it is; the events behind it wait too, in order. A checkpoint whose batch was
 * lost is never announced. Without `commits` (a saver that commits every put) events pass
 * straight through.
 */
export class SavedEventGate {
  private held: WorkerEvent[] = []
  private readonly unsubscribe: () => void

  constructor(
    private readonly emit: (e: WorkerEvent) => void,
    private readonly commits?: Pick<CommitStatus, 'isPending' | 'isLost' | 'onSettled'>,
  ) {
    this.unsubscribe = commits?.onSettled(() => this.release()) ?? (() => {})
  }

  push(e: WorkerEvent): void {
    if (!this.held.length && !this.waits(e)) this.emit(e)
    else this.held.push(e)
  }

  /** Sends what no longer waits for a commit (up to the first checkpoint still pending). */
  release(): void {
    while (this.held.length) {
      const e = this.held[0] as WorkerEvent
      if (this.waits(e)) return
      this.held.shift()
      if (e.type === 'checkpoint_saved' && this.commits?.isLost(e.checkpointId)) continue
      this.emit(e)
    }
  }

  /** How many events wait for a commit. */
  get pending(): number {
    return this.held.length
  }

  /** The run is over: no more commits to hear of (release what is settled first). */
  close(): void {
    this.release()
    this.unsubscribe()
  }

  private waits(e: WorkerEvent): boolean {
    return e.type === 'checkpoint_saved' && !!this.commits?.isPending(e.checkpointId)
  }
}
