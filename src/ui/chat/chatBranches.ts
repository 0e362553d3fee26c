/**
 * The chat's turns and branches, read from the thread's checkpoint tree (each timeline
 * entry's parent id) and nothing else, so they survive a reload and match the timeline.
 *
 * A turn starts at an `input` checkpoint (a message sent, LangGraph's new input) and runs to
 * the checkpoint before the next turn's. Editing a turn's human message runs the graph with
 * the edited message from that turn's input checkpoint: the new input checkpoint is a child
 * of the old one (the state before the message was added), so the versions of a message are
 * an input checkpoint and the input checkpoints made from it, oldest first. Pure functions.
 */
import type { TimelineEntry } from '../../worker/protocol'

/** One turn of the shown branch. */
export interface ChatTurn {
  /** The input checkpoint the turn's message came in with (the version shown). */
  inputId: string
  /** The turn's checkpoints on the branch, oldest first (the input checkpoint first). */
  checkpoints: TimelineEntry[]
  /** The input checkpoints of every version of the turn's message, oldest first. */
  versions: string[]
  /** Which of `versions` is shown. */
  version: number
}

/** The thread's checkpoints by id and by parent, and each one's recency (0: the newest). */
export interface CheckpointTree {
  byId: ReadonlyMap<string, TimelineEntry>
  children: ReadonlyMap<string, TimelineEntry[]>
  age: ReadonlyMap<string, number>
}

/** The tree of a timeline (newest first, as `getTimeline` lists it). */
export function checkpointTree(timeline: readonly TimelineEntry[]): CheckpointTree {
  const byId = new Map<string, TimelineEntry>()
  const children = new Map<string, TimelineEntry[]>()
  const age = new Map<string, number>()
  timeline.forEach((e, i) => {
    byId.set(e.checkpointId, e)
    age.set(e.checkpointId, i)
  })
  // Oldest first, so each parent's children are in the order they were written.
  for (let i = timeline.length - 1; i >= 0; i--) {
    const e = timeline[i] as TimelineEntry
    if (e.parentId === undefined) continue
    const list = children.get(e.parentId) ?? []
    list.push(e)
    children.set(e.parentId, list)
  }
  return { byId, children, age }
}

/** The branch from the thread's first checkpoint down to `shownId`, oldest first. */
export function branchPath(tree: CheckpointTree, shownId: string | undefined): TimelineEntry[] {
  const out: TimelineEntry[] = []
  const seen = new Set<string>()
  let at = shownId === undefined ? undefined : tree.byId.get(shownId)
  while (at && !seen.has(at.checkpointId)) {
    seen.add(at.checkpointId)
    out.push(at)
    at = at.parentId === undefined ? undefined : tree.byId.get(at.parentId)
  }
  return out.reverse()
}

const isInput = (e: TimelineEntry | undefined): boolean => e?.source === 'input'

/**
 * The versions of the message that came in at input checkpoint `inputId`: up from it while
 * the parent is an input checkpoint too (it was edited from there), then every input
 * checkpoint made from that one and from those, oldest first.
 */
export function messageVersions(tree: CheckpointTree, inputId: string): string[] {
  let origin = tree.byId.get(inputId)
  while (origin?.parentId !== undefined && isInput(tree.byId.get(origin.parentId)))
    origin = tree.byId.get(origin.parentId)
  if (!origin) return [inputId]
  const out: TimelineEntry[] = []
  const walk = (e: TimelineEntry) => {
    out.push(e)
    for (const c of tree.children.get(e.checkpointId) ?? []) if (isInput(c)) walk(c)
  }
  walk(origin)
  const age = (e: TimelineEntry) => tree.age.get(e.checkpointId) ?? 0
  return out.sort((a, b) => age(b) - age(a)).map((e) => e.checkpointId)
}

/**
 * The newest checkpoint of version `inputId`'s own branch: its descendants, leaving out the
 * other versions made from it (input checkpoints that are its direct children).
 */
export function versionTip(tree: CheckpointTree, inputId: string): string {
  return newestDescendant(tree, inputId, true)
}

/**
 * The turns of the branch that ends at `shownId`, oldest first. An input checkpoint whose
 * child on the branch is another input checkpoint was edited there: the edit is the turn.
 */
export function chatTurns(tree: CheckpointTree, shownId: string | undefined): ChatTurn[] {
  const path = branchPath(tree, shownId)
  const turns: ChatTurn[] = []
  path.forEach((e, i) => {
    if (isInput(e)) {
      if (isInput(path[i + 1])) return
      const versions = messageVersions(tree, e.checkpointId)
      turns.push({
        inputId: e.checkpointId,
        checkpoints: [e],
        versions,
        version: versions.indexOf(e.checkpointId),
      })
    } else turns.at(-1)?.checkpoints.push(e)
  })
  return turns
}

/**
 * Which turn each message of the conversation starts, by index: the i-th human message
 * starts the i-th turn when there are as many of each (a chat sends one human message a
 * turn); otherwise the last human messages start the last turns.
 */
export function turnStarts(
  roles: readonly string[],
  turns: readonly ChatTurn[],
): Map<number, ChatTurn> {
  const humans = roles.flatMap((r, i) => (r === 'human' ? [i] : []))
  const out = new Map<number, ChatTurn>()
  const skip = Math.max(0, humans.length - turns.length)
  const from = Math.max(0, turns.length - humans.length)
  for (let k = 0; k + from < turns.length && k + skip < humans.length; k++)
    out.set(humans[k + skip] as number, turns[k + from] as ChatTurn)
  return out
}

/**
 * The newest checkpoint written after `id` on any branch through it (`id` itself if none);
 * `ownBranch`: not through the input checkpoints made from `id` (its message's other versions).
 */
export function newestDescendant(tree: CheckpointTree, id: string, ownBranch = false): string {
  let best = id
  let bestAge = tree.age.get(id) ?? Infinity
  const stack = (tree.children.get(id) ?? []).filter((c) => !ownBranch || !isInput(c))
  while (stack.length) {
    const e = stack.pop() as TimelineEntry
    const age = tree.age.get(e.checkpointId) ?? Infinity
    if (age < bestAge) [best, bestAge] = [e.checkpointId, age]
    stack.push(...(tree.children.get(e.checkpointId) ?? []))
  }
  return best
}
