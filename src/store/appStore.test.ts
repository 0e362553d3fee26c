import { describe, expect, it, vi } from 'vitest'
import type { RuntimeClient } from '../worker/client'
import { createAppStore, type GraphEntry } from './appStore'
import { memoryGraphs } from './memoryGraphs'

/**
 * A runtime client that compiles everything and has no history: enough for editing stories.
 * `gate` may hold a request until a promise of the test's settles.
 */
function fakeClient(
  gate?: (type: string, params: unknown) => Promise<void> | undefined,
): RuntimeClient {
  let n = 0
  const request = async (type: string, params: unknown) => {
    await gate?.(type, params)
    if (type === 'compile') return { ok: true, graphId: `g${++n}`, issues: [] }
    if (type === 'getHistory' || type === 'getTimeline' || type === 'listThreads') return []
    if (type === 'inspectCheckpoint') return null
    return {}
  }
  return { request, on: () => () => {}, onBatch: () => () => {} } as unknown as RuntimeClient
}

const example: GraphEntry = {
  id: 'ex',
  name: 'ex',
  doc: { superstep: 1, name: 'ex', state: [{ name: 'x' }], nodes: [], edges: [] },
  trusted: true,
  allowNetwork: false,
}

function newStore(client = fakeClient()) {
  const graphs = memoryGraphs()
  let id = 0
  const store = createAppStore({
    client,
    graphs,
    examples: [example],
    newId: () => `id${++id}`,
  })
  return { store, graphs }
}

async function setup() {
  const made = newStore()
  await made.store.getState().init()
  return made
}

/** A promise and the function that settles it. */
function latch() {
  let open!: () => void
  const done = new Promise<void>((r) => (open = r))
  return { done, open }
}

const settle = () => new Promise((r) => setTimeout(r, 10))
type Doc = { name: string; nodes: { id: string }[]; edges: unknown[] }

describe('editing a document', () => {
  it('says Saved only once the newest change is written, not when an older one is', async () => {
    const { store, graphs } = await setup()
    const s = () => store.getState()
    const first = latch()
    const second = latch()
    const held = [first, second]
    const save = graphs.saveOver.bind(graphs)
    graphs.saveOver = async (e, rev) => {
      await held.shift()?.done
      return save(e, rev)
    }
    s().edit({ type: 'addNode', id: 'a' })
    s().edit({ type: 'addNode', id: 'b' })
    expect(s().saveState).toBe('saving')
    first.open()
    await settle()
    expect((graphs.rows.get('ex')?.doc as Doc).nodes.map((n) => n.id)).toEqual(['a'])
    expect(s().saveState).toBe('saving') // 'b' is on screen, not yet written
    second.open()
    await settle()
    expect((graphs.rows.get('ex')?.doc as Doc).nodes.map((n) => n.id)).toEqual(['a', 'b'])
    expect(s().saveState).toBe('saved')
  })

  it('edits go through applyEdit, are autosaved, and undo/redo walk them back and forth', async () => {
    const { store, graphs } = await setup()
    const s = () => store.getState()
    s().edit({ type: 'addNode', id: 'a' })
    s().edit({ type: 'addEdge', from: '__start__', to: 'a' })
    expect((s().doc as Doc).nodes.map((n) => n.id)).toEqual(['a'])
    expect(s().issues.filter((i) => i.severity === 'error')).toEqual([])
    await settle()
    expect((graphs.rows.get('ex')?.doc as Doc).edges).toHaveLength(1)

    s().undo()
    expect((s().doc as Doc).edges).toHaveLength(0)
    expect(s().issues.map((i) => i.code)).toContain('UNREACHABLE_NODE')
    s().undo()
    expect((s().doc as Doc).nodes).toHaveLength(0)
    s().redo()
    s().redo()
    expect((s().doc as Doc).edges).toHaveLength(1)
    await settle()
    expect((graphs.rows.get('ex')?.doc as Doc).edges).toHaveLength(1)
  })

  it('a refused edit changes nothing and says why', async () => {
    const { store } = await setup()
    const before = store.getState().doc
    store.getState().edit({ type: 'addNode', id: 'x' }) // a field is named x
    expect(store.getState().doc).toBe(before)
    expect(store.getState().editError).toMatch(/x/)
  })

  it('opening another graph is not an edit: undo does not cross documents', async () => {
    const { store } = await setup()
    store.getState().edit({ type: 'addNode', id: 'a' })
    await store.getState().newGraph(undefined, 'second')
    store.getState().undo()
    expect((store.getState().doc as Doc).name).toBe('second')
  })
})

describe('documents', () => {
  it('an import that fails validation shows its problems and changes nothing', async () => {
    const { store, graphs } = await setup()
    const bad = {
      superstep: 1,
      name: 'bad',
      state: [],
      nodes: [{ id: 'a', code: '(s) =>' }],
      edges: [],
    }
    await store.getState().importDocument(JSON.stringify(bad), 'bad.json')
    expect(store.getState().importProblems?.issues.map((i) => i.code)).toContain('CODE_SYNTAX')
    expect(graphs.rows.size).toBe(1)
    expect(store.getState().current?.id).toBe('ex')
  })

  it('a valid import is saved untrusted and exports back byte for byte', async () => {
    const { store } = await setup()
    const doc = { superstep: 1, name: 'mine', state: [], nodes: [], edges: [] }
    await store.getState().importDocument(JSON.stringify(doc), 'mine.json')
    expect(store.getState().current).toMatchObject({ name: 'mine', trusted: false })
    expect(store.getState().graphId).toBeNull()
    const out = store.getState().exportCurrent()
    expect(out?.fileName).toBe('mine.superstep.json')
    expect(JSON.parse(out?.text ?? '')).toEqual(doc)
  })

  it('rename, duplicate, delete to the bin, undo the delete, delete for good', async () => {
    const { store, graphs } = await setup()
    await store.getState().renameGraph('renamed')
    await settle()
    expect(graphs.rows.get('ex')?.name).toBe('renamed')
    await store.getState().duplicateGraph()
    expect(store.getState().current?.name).toBe('renamed copy')
    const copyId = store.getState().current?.id as string
    await store.getState().deleteGraph()
    expect(store.getState().graphs.map((g) => g.id)).not.toContain(copyId)
    expect(store.getState().bin.map((g) => g.id)).toEqual([copyId])
    await store.getState().restoreDeleted()
    expect(store.getState().bin).toEqual([])
    expect(store.getState().current?.id).toBe(copyId)
    await store.getState().deleteGraph()
    await store.getState().deleteForever(copyId)
    expect(graphs.rows.has(copyId)).toBe(false)
    expect(store.getState().bin).toEqual([])
  })
})

describe('opening graphs while others are still opening', () => {
  it('a template clicked while the page starts stays open; the start does not switch back', async () => {
    const seeding = latch()
    const { store, graphs } = newStore()
    // The first start saves the examples; the click lands while that save is under way.
    const save = graphs.save
    graphs.save = async (e) => {
      if (e.id === example.id) await seeding.done
      await save(e)
    }
    const starting = store.getState().init()
    await settle()
    const template = { superstep: 1, name: 'from template', state: [], nodes: [], edges: [] }
    await store.getState().newGraph(template)
    seeding.open()
    await starting
    expect(store.getState().current?.name).toBe('from template')
    expect((store.getState().doc as Doc).name).toBe('from template')
    expect(store.getState().graphs.map((g) => g.name)).toEqual(['ex', 'from template'])
  })

  it('a graph opened while another still opens waits for it; the first compile is let go, not taken for the second', async () => {
    const slow = latch()
    const released: unknown[] = []
    const { store } = newStore(
      fakeClient((type, params) => {
        if (type === 'releaseGraph') released.push((params as { graphId: string }).graphId)
        const name = (params as { graph?: { name?: string } } | undefined)?.graph?.name
        return type === 'compile' && name === 'ex' ? slow.done : undefined
      }),
    )
    const starting = store.getState().init() // opens ex, whose compile is held
    await settle()
    const opening = store.getState().newGraph(undefined, 'second')
    await settle()
    // Its opening is queued behind ex's (see navigation.ts).
    expect((store.getState().doc as Doc).name).toBe('ex')
    slow.open()
    await Promise.all([starting, opening])
    const second = store.getState().graphId
    expect(second).not.toBeNull()
    expect((store.getState().doc as Doc).name).toBe('second')
    expect(store.getState().graphId).toBe(second)
    expect(released).toHaveLength(1)
    expect(released).not.toContain(second)
  })
})

/** Makes a graph named "made" whose save is slow, and picks graph `id` while it is saved. */
async function pickWhileMaking(
  store: ReturnType<typeof newStore>['store'],
  graphs: ReturnType<typeof newStore>['graphs'],
  id: string,
) {
  const slow = latch()
  const save = graphs.save
  graphs.save = async (e) => {
    await slow.done
    await save(e)
  }
  const making = store.getState().newGraph(undefined, 'made')
  await settle()
  const picking = store.getState().select(id)
  await settle()
  slow.open()
  await Promise.all([making, picking])
}

describe('a new graph and a graph picked at once', () => {
  it('the graph picked while the new one is being saved opens last, and stays open', async () => {
    const { store, graphs } = await setup()
    await store.getState().newGraph(undefined, 'other')
    const other = store.getState().current!.id
    await store.getState().select('ex')
    // The new graph's save is slow; the user picks "other" meanwhile.
    await pickWhileMaking(store, graphs, other)
    expect(store.getState().current?.id).toBe(other)
    expect((store.getState().doc as Doc).name).toBe('other')
    // The new graph was made all the same.
    expect(store.getState().graphs.map((g) => g.name)).toContain('made')
  })

  it('the graph open when a new one is asked for, picked again meanwhile, is the one left open', async () => {
    const { store, graphs } = await setup()
    await pickWhileMaking(store, graphs, 'ex') // open now, but not once "made" is
    expect(store.getState().current?.id).toBe('ex')
  })

  it('the graph already open, picked again, keeps its view', async () => {
    const { store } = await setup()
    store.getState().edit({ type: 'addNode', id: 'kept' })
    store.setState({ selection: { nodes: ['kept'], edges: [] } })
    await store.getState().select('ex')
    expect(store.getState().selection.nodes).toEqual(['kept'])
  })
})

describe('a compile and an edit at once', () => {
  it('an edit while the graph compiles keeps that compile: Run has a graph', async () => {
    const slow = latch()
    const { store } = newStore(fakeClient((type) => (type === 'compile' ? slow.done : undefined)))
    const starting = store.getState().init()
    await settle()
    store.getState().edit({ type: 'addNode', id: 'typed' })
    slow.open()
    await starting
    expect(store.getState().graphId).not.toBeNull()
  })

  it("a compile that answers after an edit leaves the edited document's problems shown", async () => {
    const slow = latch()
    const { store } = newStore(fakeClient((type) => (type === 'compile' ? slow.done : undefined)))
    const starting = store.getState().init()
    await settle()
    // A node nothing reaches: a problem of the edited document, not of the one compiling.
    store.getState().edit({ type: 'addNode', id: 'stray' })
    const problems = store.getState().issues
    expect(problems.length).toBeGreaterThan(0)
    slow.open()
    await starting
    expect(store.getState().issues).toEqual(problems)
  })
})

describe('a run pressed before it can start', () => {
  it('is starting while the graph compiles (the runtime still loading), then runs', async () => {
    const slow = latch()
    let held = false
    const { store } = newStore(
      fakeClient((type) => (type === 'compile' && held ? slow.done : undefined)),
    )
    await store.getState().init()
    store.getState().edit({ type: 'addNode', id: 'more' }) // a Run compiles it first
    held = true
    const running = store.getState().run()
    await settle()
    expect(store.getState().runStarting).toBe(true)
    expect(store.getState().runState).toBe('idle')
    slow.open()
    await running
    expect(store.getState().runStarting).toBe(false)
  })
})

describe('the run input belongs to its graph', () => {
  it("a template's first input opens with it; each graph keeps its own, across an edit's autosave", async () => {
    const { store, graphs } = await setup()
    const s = () => store.getState()
    const template = { superstep: 1, name: 'from template', state: [], nodes: [], edges: [] }
    await s().newGraph(template, undefined, '{"subjects":["cats"]}')
    const id = s().current?.id as string
    expect(s().input).toBe('{"subjects":["cats"]}')
    s().setInput('{"subjects":["owls"]}')
    s().edit({ type: 'addNode', id: 'a' }) // the autosave writes the whole row
    await settle()
    expect(graphs.rows.get(id)?.input).toBe('{"subjects":["owls"]}')
    await s().select('ex')
    expect(s().input).toBe('{}')
    await s().select(id)
    expect(s().input).toBe('{"subjects":["owls"]}')
    await s().duplicateGraph()
    expect(s().input).toBe('{"subjects":["owls"]}')
  })

  it('an input typed and left, with no edit of the graph, is there when the graph opens again', async () => {
    const { store, graphs } = await setup()
    const s = () => store.getState()
    s().setInput('{"x":"typed"}')
    await s().newGraph(undefined, 'other')
    expect(s().input).toBe('{}')
    await s().select('ex')
    expect(s().input).toBe('{"x":"typed"}')
    expect(graphs.rows.get('ex')?.input).toBe('{"x":"typed"}')
  })
})

describe('the timeline follows a run', () => {
  /**
   * A run that saves a checkpoint every 100 ms for `ms`, over a client whose live timeline
   * reads (the newest 20) take `readMs`: when each read started and ended (fake time).
   */
  async function followed(readMs: number, ms: number) {
    let listener: (events: unknown[]) => void = () => {}
    const reads: [number, number][] = []
    const client = fakeClient()
    const request = client.request.bind(client)
    client.onBatch = ((l: (events: unknown[]) => void) => {
      listener = l
      return () => {}
    }) as RuntimeClient['onBatch']
    client.request = (async (type: string, params: { limit?: number }) => {
      if (type !== 'getTimeline' || params.limit !== 20)
        return request(type as never, params as never)
      const read: [number, number] = [performance.now(), NaN]
      reads.push(read)
      await new Promise((r) => setTimeout(r, readMs))
      read[1] = performance.now()
      return []
    }) as RuntimeClient['request']
    const { store } = newStore(client)
    await store.getState().init()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    try {
      const threadId = store.getState().threadId
      for (let t = 0; t < ms; t += 100) {
        listener([{ type: 'checkpoint_saved', threadId, checkpointId: `c${t}`, step: t }])
        await vi.advanceTimersByTimeAsync(100)
      }
      await vi.advanceTimersByTimeAsync(20 * readMs + 1000) // the last read and the one it missed
    } finally {
      vi.useRealTimers()
    }
    return reads
  }

  it('reads twice a second while reads are quick', async () => {
    const reads = await followed(10, 3000)
    const starts = reads.map(([a]) => a)
    expect(reads.length).toBeGreaterThanOrEqual(5)
    for (let i = 1; i < starts.length; i++)
      expect((starts[i] as number) - (starts[i - 1] as number)).toBeLessThan(700)
  })

  it('one read at a time, each after five times what the last one took', async () => {
    const reads = await followed(400, 8000)
    expect(reads.length).toBeGreaterThanOrEqual(3)
    for (let i = 1; i < reads.length; i++) {
      const [start] = reads[i] as [number, number]
      const [, lastEnd] = reads[i - 1] as [number, number]
      expect(start).toBeGreaterThanOrEqual(lastEnd + 5 * 400)
    }
    // The run's last checkpoints were saved during a read (at 7.8 and 7.9 s): read after it.
    expect((reads.at(-1) as [number, number])[0]).toBeGreaterThan(8000)
  })
})
