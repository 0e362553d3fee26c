import { describe, expect, it, vi } from 'vitest'
import type { RuntimeClient } from '../worker/client'
import { createAppStore, type GraphEntry } from './appStore'
import type { DraftJournal, JournalEntry, TabBus, TabMessage } from './appTypes'
import { SAVE_RETRY_MS } from './docSync'
import { memoryGraphs } from './memoryGraphs'

/** Enough of a runtime for editing: everything compiles, nothing has history. */
const client = {
  request: async (type: string) =>
    type === 'compile'
      ? { ok: true, graphId: 'g', issues: [] }
      : ['getTimeline', 'listThreads', 'getHistory'].includes(type)
        ? []
        : {},
  on: () => () => {},
  onBatch: () => () => {},
} as unknown as RuntimeClient

const example: GraphEntry = {
  id: 'ex',
  name: 'ex',
  doc: {
    superstep: 1,
    name: 'ex',
    state: [{ name: 'x' }],
    nodes: [{ id: 'a', code: '() => ({})' }],
    edges: [{ from: '__start__', to: 'a' }],
  },
  trusted: true,
  allowNetwork: false,
}

/** Tabs on one table, each posting to the others (as a BroadcastChannel does). */
function browser() {
  const graphs = memoryGraphs()
  const handlers: ((m: TabMessage) => void)[][] = []
  const journals = new Map<string, JournalEntry>()
  const tab = (journal?: DraftJournal) => {
    const mine: ((m: TabMessage) => void)[] = []
    handlers.push(mine)
    const bus: TabBus = {
      post: (m) => handlers.filter((h) => h !== mine).forEach((h) => h.forEach((f) => f(m))),
      on: (f) => {
        mine.push(f)
        return () => undefined
      },
    }
    return createAppStore({
      client,
      graphs,
      examples: [example],
      newId: () => `id${Math.random()}`,
      bus,
      ...(journal && { journal }),
    })
  }
  return { graphs, tab, journals }
}

/** Two tabs of one browser, each with the app started. */
async function twoTabs() {
  const b = browser()
  const A = b.tab()
  const B = b.tab()
  await A.getState().init()
  await B.getState().init()
  return { b, A, B }
}

/** A journal in memory (localStorage's stand-in), and what it holds. */
function memoryJournal() {
  const kept = new Map<string, JournalEntry>()
  const journal: DraftJournal = {
    write: (id, e) => void kept.set(id, e),
    clear: (id) => void kept.delete(id),
    take: async (id) => {
      const e = kept.get(id) ?? null
      kept.delete(id)
      return e
    },
  }
  return { kept, journal }
}

const settle = () => new Promise((r) => setTimeout(r, 20))
type Doc = { state: { name: string }[]; nodes: { id: string; code?: string }[] }
const doc = (s: { getState(): { doc: unknown } }) => s.getState().doc as Doc

describe('two tabs on one graph', () => {
  it("keeps both tabs' edits: a field added in one, a node renamed in the other", async () => {
    const { b, A, B } = await twoTabs()
    // Both edit before either has seen the other's save.
    A.getState().edit({ type: 'renameNode', from: 'a', to: 'first' })
    B.getState().edit({ type: 'addField', field: { name: 'log', reducer: 'append' } })
    await settle()
    await settle()
    const stored = b.graphs.rows.get('ex')?.doc as Doc
    expect(stored.nodes.map((n) => n.id)).toEqual(['first'])
    expect(stored.state.map((f) => f.name)).toEqual(['x', 'log'])
    // Each tab shows the merged document, and says it merged or took the change.
    expect(doc(A)).toEqual(stored)
    expect(doc(B)).toEqual(stored)
    expect(B.getState().saveState).toBe('saved')
  })

  it('a change in one tab reaches the other when that one has nothing unsaved', async () => {
    const { b, A, B } = await twoTabs()
    A.getState().edit({ type: 'setNodeCode', id: 'a', code: '() => ({ x: 1 })' })
    await settle()
    expect(doc(B).nodes[0]?.code).toBe('() => ({ x: 1 })')
    expect(B.getState().message).toMatch(/changed in another tab/)
    // Taking it is not an edit of B's: B writes nothing back.
    expect(b.graphs.rows.get('ex')?.rev).toBe(2)
  })

  it('the same thing changed differently in both tabs: the user is told where, and chooses', async () => {
    const { b, A, B } = await twoTabs()
    A.getState().edit({ type: 'setNodeCode', id: 'a', code: 'mine' })
    B.getState().edit({ type: 'setNodeCode', id: 'a', code: 'theirs' })
    await settle()
    await settle()
    const [loser, winner] = A.getState().conflict ? [A, B] : [B, A]
    expect(loser.getState().conflict).toMatchObject({
      kind: 'changed',
      paths: ['nodes › a › code'],
    })
    expect(loser.getState().saveState).toBe('failed')
    const theirs = doc(winner).nodes[0]?.code
    const mine = doc(loser).nodes[0]?.code
    expect((b.graphs.rows.get('ex')?.doc as Doc).nodes[0]?.code).toBe(theirs)
    // Keeping mine writes it over theirs (the user chose so).
    await loser.getState().resolveConflict('mine')
    await settle()
    expect((b.graphs.rows.get('ex')?.doc as Doc).nodes[0]?.code).toBe(mine)
    expect(loser.getState().conflict).toBeNull()
    expect(loser.getState().saveState).toBe('saved')
  })

  it("undo in a tab never takes another tab's change back out", async () => {
    const { b, A, B } = await twoTabs()
    // B: an edit of its own, saved; then A's change arrives and is taken in.
    B.getState().edit({ type: 'addField', field: { name: 'mine' } })
    await settle()
    A.getState().edit({ type: 'renameNode', from: 'a', to: 'renamed' })
    await settle()
    expect(doc(B).nodes.map((n) => n.id)).toEqual(['renamed'])
    // Undo in B undoes B's own edit only: A's rename stays, on screen and in the table.
    B.getState().undo()
    await settle()
    expect(doc(B).state.map((f) => f.name)).toEqual(['x'])
    expect(doc(B).nodes.map((n) => n.id)).toEqual(['renamed'])
    const stored = b.graphs.rows.get('ex')?.doc as Doc
    expect(stored.nodes.map((n) => n.id)).toEqual(['renamed'])
    expect(stored.state.map((f) => f.name)).toEqual(['x'])
    // And redo brings B's edit back, still with A's rename.
    B.getState().redo()
    await settle()
    expect(doc(B).state.map((f) => f.name)).toEqual(['x', 'mine'])
    expect(doc(B).nodes.map((n) => n.id)).toEqual(['renamed'])
  })

  it("undo after a merge of edits made at once keeps the other tab's part", async () => {
    const { A, B } = await twoTabs()
    A.getState().edit({ type: 'renameNode', from: 'a', to: 'first' })
    B.getState().edit({ type: 'addField', field: { name: 'log', reducer: 'append' } })
    await settle()
    await settle()
    const [merger] = [A, B].filter((t) => /Merged/.test(t.getState().message ?? ''))
    expect(merger).toBeDefined()
    merger!.getState().undo()
    await settle()
    await settle()
    // What the other tab did is still there; only the merger's own edit is undone.
    const after = doc(merger!)
    if (merger === B) {
      expect(after.nodes.map((n) => n.id)).toEqual(['first'])
      expect(after.state.map((f) => f.name)).toEqual(['x'])
    } else {
      expect(after.state.map((f) => f.name)).toEqual(['x', 'log'])
      expect(after.nodes.map((n) => n.id)).toEqual(['a'])
    }
  })

  it('a conflict left open while another graph is opened is asked again on return', async () => {
    const b = browser()
    const { kept, journal } = memoryJournal()
    const A = b.tab()
    const B = b.tab(journal)
    await A.getState().init()
    await B.getState().init()
    A.getState().edit({ type: 'setNodeCode', id: 'a', code: 'mine' })
    B.getState().edit({ type: 'setNodeCode', id: 'a', code: 'theirs' })
    await settle()
    await settle()
    // A's save went first: B has the conflict.
    expect(B.getState().conflict).toMatchObject({ kind: 'changed' })
    // B leaves the graph with the conflict open, and comes back: its edit is still there.
    await B.getState().newGraph(undefined, 'elsewhere')
    await settle()
    expect(B.getState().conflict).toBeNull()
    await B.getState().select('ex')
    await settle()
    expect(doc(B).nodes[0]?.code).toBe('theirs')
    expect(B.getState().conflict).toMatchObject({ kind: 'changed', paths: ['nodes › a › code'] })
    expect(B.getState().message).toMatch(/Choose which to keep/)
    expect((b.graphs.rows.get('ex')?.doc as Doc).nodes[0]?.code).toBe('mine')
    await B.getState().resolveConflict('mine')
    await settle()
    expect((b.graphs.rows.get('ex')?.doc as Doc).nodes[0]?.code).toBe('theirs')
    expect(kept.size).toBe(0)
  })

  it('a graph moved to the bin in one tab is not brought back by the other tab saving', async () => {
    const { b, A, B } = await twoTabs()
    await A.getState().newGraph(undefined, 'other')
    await A.getState().select('ex')
    await A.getState().deleteGraph()
    await settle()
    expect(B.getState().conflict).toMatchObject({ graphId: 'ex', kind: 'deleted' })
    B.getState().edit({ type: 'addField', field: { name: 'late' } })
    await settle()
    expect(b.graphs.rows.get('ex')?.deletedAt).toBeTruthy()
    expect((b.graphs.rows.get('ex')?.doc as Doc).state.map((f) => f.name)).toEqual(['x'])
    // B keeps it: out of the bin, with B's edit.
    await B.getState().resolveConflict('mine')
    await settle()
    expect(b.graphs.rows.get('ex')?.deletedAt).toBeUndefined()
    expect((b.graphs.rows.get('ex')?.doc as Doc).state.map((f) => f.name)).toEqual(['x', 'late'])
  })
})

describe('saving', () => {
  it('an edit whose save never finished (the tab closed) comes back from the journal', async () => {
    const b = browser()
    const { kept, journal } = memoryJournal()
    const A = b.tab(journal)
    await A.getState().init()
    // The write never lands: the tab "closes" with it under way.
    b.graphs.saveOver = () => new Promise(() => undefined)
    A.getState().edit({ type: 'addField', field: { name: 'typed' } })
    expect(kept.get('ex')?.baseRev).toBe(1)
    const b2 = memoryGraphs()
    b2.rows.set('ex', structuredClone(b.graphs.rows.get('ex') as GraphEntry))
    const reopened = createAppStore({
      client,
      graphs: b2,
      examples: [],
      newId: () => 'n',
      journal,
    })
    await reopened.getState().init()
    await settle()
    expect(doc(reopened).state.map((f) => f.name)).toEqual(['x', 'typed'])
    expect(reopened.getState().message).toMatch(/Recovered the last changes to ex/)
    expect((b2.rows.get('ex')?.doc as Doc).state.map((f) => f.name)).toEqual(['x', 'typed'])
    expect(kept.size).toBe(0)
  })

  it('typed on while a save was being written, and that save landed: the rest comes back too', async () => {
    const b = browser()
    const { kept, journal } = memoryJournal()
    const A = b.tab(journal)
    await A.getState().init()
    // The first save is written to the table but the page goes before it hears so.
    const save = b.graphs.saveOver.bind(b.graphs)
    b.graphs.saveOver = (e, rev) => {
      void save(e, rev)
      return new Promise(() => undefined)
    }
    A.getState().edit({ type: 'addField', field: { name: 'first' } })
    A.getState().edit({ type: 'addField', field: { name: 'second' } })
    expect(kept.get('ex')).toMatchObject({ baseRev: 1 })
    expect((b.graphs.rows.get('ex')?.doc as Doc).state.map((f) => f.name)).toEqual(['x', 'first'])
    const b2 = memoryGraphs()
    b2.rows.set('ex', structuredClone(b.graphs.rows.get('ex') as GraphEntry))
    const reopened = createAppStore({ client, graphs: b2, examples: [], newId: () => 'n', journal })
    await reopened.getState().init()
    await settle()
    // Not a conflict: the edit was made on top of the save that landed.
    expect(reopened.getState().conflict).toBeNull()
    expect(doc(reopened).state.map((f) => f.name)).toEqual(['x', 'first', 'second'])
    expect(reopened.getState().message).toMatch(/Recovered the last changes to ex/)
    expect((b2.rows.get('ex')?.doc as Doc).state.map((f) => f.name)).toEqual([
      'x',
      'first',
      'second',
    ])
  })

  it('after a crash, a journal older than the saves that landed (localStorage is slower to disk) is no conflict', async () => {
    const b = browser()
    const kept = new Map<string, JournalEntry>()
    // Tab A, opened at 0 ms; its journal entries say who wrote them and when (as localJournal's do).
    const journal: DraftJournal = {
      writer: 'A@0',
      write: (id, e) => void kept.set(id, { ...e, writer: 'A@0', at: 0 }),
      clear: (id) => void kept.delete(id),
      take: async (id) => {
        const e = kept.get(id) ?? null
        kept.delete(id)
        return e
      },
    }
    const A = b.tab(journal)
    await A.getState().init()
    A.getState().edit({ type: 'addField', field: { name: 'first' } })
    const stale = structuredClone(kept.get('ex'))
    await settle()
    A.getState().edit({ type: 'addField', field: { name: 'second' } })
    await settle()
    expect(b.graphs.rows.get('ex')).toMatchObject({ rev: 3, writer: 'A@0' })
    // The browser dies; localStorage kept only the first journal entry, not the clears.
    kept.set('ex', stale as JournalEntry)
    const reopen = () => {
      const graphs = memoryGraphs()
      graphs.rows.set('ex', structuredClone(b.graphs.rows.get('ex') as GraphEntry))
      return createAppStore({ client, graphs, examples: [], newId: () => 'n', journal })
    }
    const again = reopen()
    await again.getState().init()
    await settle()
    expect(again.getState().conflict).toBeNull()
    expect(again.getState().saveState).not.toBe('failed')
    expect(doc(again).state.map((f) => f.name)).toEqual(['x', 'first', 'second'])
    // Saved by a tab that was open before the journal was written (another tab): that one
    // may not hold the edit, so the user chooses.
    b.graphs.rows.set('ex', { ...(b.graphs.rows.get('ex') as GraphEntry), writer: 'B@-5' })
    kept.set('ex', stale as JournalEntry)
    const other = reopen()
    await other.getState().init()
    await settle()
    expect(other.getState().conflict?.kind).toBe('changed')
  })

  it('a full disk: says so with the usage, keeps the edit, and saves it once there is room', async () => {
    const b = browser()
    let full = true
    const save = b.graphs.saveOver.bind(b.graphs)
    b.graphs.saveOver = async (e, rev) => {
      if (full) throw Object.assign(new Error('full'), { name: 'QuotaExceededError' })
      return save(e, rev)
    }
    const store = createAppStore({
      client,
      graphs: b.graphs,
      examples: [example],
      newId: () => 'n',
      storageUse: async () => ({ usage: 49e6, quota: 50e6 }),
    })
    await store.getState().init()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      store.getState().edit({ type: 'addField', field: { name: 'big' } })
      await vi.advanceTimersByTimeAsync(10)
      expect(store.getState().saveState).toBe('failed')
      expect(store.getState().message).toMatch(
        /storage for this site is full \(49 MB of 50 MB used\)/,
      )
      full = false
      await vi.advanceTimersByTimeAsync(SAVE_RETRY_MS + 10)
      expect(store.getState().saveState).toBe('saved')
      expect((b.graphs.rows.get('ex')?.doc as Doc).state.map((f) => f.name)).toEqual(['x', 'big'])
      expect(store.getState().message).toBe('Saved ex after all.')
    } finally {
      vi.useRealTimers()
    }
  })
})
