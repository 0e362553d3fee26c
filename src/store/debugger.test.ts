import { afterEach, describe, expect, it } from 'vitest'
import { closeAll, setup as setupService } from '../worker/serviceHarness'
import counter from '../../examples/counter.json'
import approval from '../../examples/approval.json'
import type { RuntimeClient } from '../worker/client'
import { createAppStore } from './appStore'
import { memoryGraphs } from './memoryGraphs'

/** Stories of the debugger: the app store over the real runtime service (fake-indexeddb). */

/**
 * Holds the next request of type `held` until `release()`: a slow read, on demand.
 * `hold()` resolves once that request is made.
 */
function holdRequests(
  client: RuntimeClient,
  held: 'inspectCheckpoint' | 'getState' | 'listThreads',
) {
  const request = client.request.bind(client)
  let gate: Promise<void> | null = null
  let open = () => {}
  let reached = () => {}
  client.request = ((type, params, transfer) => {
    if (type !== held || !gate) return request(type, params, transfer as Transferable[] | undefined)
    const wait = gate
    gate = null
    reached()
    return wait.then(() => request(type, params))
  }) as RuntimeClient['request']
  return {
    hold: () => {
      gate = new Promise<void>((r) => (open = r))
      return new Promise<void>((r) => (reached = r))
    },
    release: () => open(),
  }
}

async function setup(doc: unknown = counter, service?: Awaited<ReturnType<typeof setupService>>) {
  service ??= await setupService()
  let id = 0
  const store = createAppStore({
    client: service.client,
    graphs: memoryGraphs(),
    examples: [{ id: 'g', name: 'g', doc, trusted: true, allowNetwork: false }],
    newId: () => `id${++id}`,
  })
  await store.getState().init()
  return store
}

/** The counter, run to its end, over a client whose `held` requests can be held. */
async function ranWithHeld(held: Parameters<typeof holdRequests>[1]) {
  const service = await setupService()
  const slow = holdRequests(service.client, held)
  const store = await setup(counter, service)
  await store.getState().run()
  return { store, slow }
}

const field = (
  s: { inspection: { channels: { name: string; value?: unknown }[] } | null },
  name: string,
) => s.inspection?.channels.find((c) => c.name === name)?.value

afterEach(closeAll)

describe('the debugger over the runtime worker', () => {
  it('steps one super-step at a time and shows the newest checkpoint', async () => {
    const store = await setup()
    await store.getState().step()
    let s = store.getState()
    expect(s.timeline.map((t) => t.step)).toEqual([0, -1])
    expect(s.inspection?.step).toBe(0)
    expect(s.inspection?.schedule.find((n) => n.node === 'inc')?.willRun).toBe(true)
    await store.getState().step()
    s = store.getState()
    expect(s.timeline[0]?.ran.map((r) => r.name)).toEqual(['inc'])
    expect(s.timeline[0]?.ran[0]?.durationMs).toBeGreaterThanOrEqual(0)
    expect(field(s, 'count')).toBe(1)
    // An older checkpoint can be shown; the diff (read while the Diff tab is open) is
    // against its parent.
    await store.getState().setDiffWanted(true)
    await store.getState().selectCheckpoint(s.timeline[1]?.checkpointId ?? null)
    s = store.getState()
    expect(s.inspection?.step).toBe(0)
    expect(s.diff?.changes).toEqual([])
    await store.getState().run()
    s = store.getState()
    expect(s.runState).toBe('done')
    expect(s.selectedCheckpointId).toBeNull()
    expect(field(s, 'count')).toBe(3)
  })

  it('forks with a checked update, continues the fork, and keeps the old branch', async () => {
    const store = await setup()
    await store.getState().run()
    const oldTip = store.getState().timeline[0]?.checkpointId as string
    const at2 = store.getState().timeline.find((t) => t.step === 2)?.checkpointId as string
    expect(await store.getState().forkFrom(at2, '{"count": "x"}')).toMatch(/^count: /)
    expect(await store.getState().forkFrom(at2, '{"nope": 1}')).toMatch(/not a field/)
    expect(store.getState().timeline).toHaveLength(5)
    expect(await store.getState().forkFrom(at2, '{"log": ["forked"]}', 'inc')).toBeNull()
    let s = store.getState()
    expect(s.timeline).toHaveLength(6)
    expect(s.timeline[0]).toMatchObject({ source: 'update', parentId: at2, next: ['inc'] })
    expect(s.inspection?.checkpointId).toBe(s.timeline[0]?.checkpointId)
    await store.getState().run()
    s = store.getState()
    expect(field(s, 'log')).toEqual(['inc', 'inc', 'forked', 'inc'])
    expect(store.getState().diff).toBeNull() // the Diff tab is closed: nothing read
    await store.getState().setDiffWanted(true)
    await store.getState().setCompareWith(oldTip)
    const changes = store.getState().diff?.changes ?? []
    expect(changes).toEqual([
      { path: ['log', 2], kind: 'changed', before: 'inc', after: 'forked' },
      { path: ['log', 3], kind: 'added', after: 'inc' },
    ])
    await store.getState().selectCheckpoint(oldTip)
    expect(field(store.getState(), 'log')).toEqual(['inc', 'inc', 'inc'])
    // Replay from step 1 grows a third branch.
    const at1 = s.timeline.find((t) => t.step === 1)?.checkpointId as string
    await store.getState().replayFrom(at1)
    s = store.getState()
    // As LangGraph.js does: a `fork` checkpoint (numbered step 2) on step 1, then 3 and 4.
    expect(s.timeline.slice(0, 3).map((t) => [t.step, t.source])).toEqual([
      [4, 'loop'],
      [3, 'loop'],
      [2, 'fork'],
    ])
    expect(s.timeline[2]?.parentId).toBe(at1)
    expect(field(s, 'count')).toBe(3)
  })

  it('forks and replays while a run is paused by Step: the paused run ends, its checkpoints kept', async () => {
    // The first five minutes: Step a few times, pick an older step, edit, Fork from here.
    const store = await setup()
    for (let i = 0; i < 3; i++) await store.getState().step()
    expect(store.getState().runState).toBe('paused')
    const at0 = store.getState().timeline.find((t) => t.step === 0)?.checkpointId as string
    expect(await store.getState().forkFrom(at0, '{"count": 10}')).toBeNull()
    let s = store.getState()
    expect(s.message).toMatch(/^Ended the paused run \(its checkpoints are kept\) and forked from/)
    // At the fork, ready to go on (as after a reload): no run of the thread is left paused.
    expect([s.runState, s.resumable]).toEqual(['interrupted', false])
    expect(s.timeline).toHaveLength(5)
    expect(s.timeline[0]).toMatchObject({ source: 'update', parentId: at0, next: ['inc'] })
    // Step runs on from the fork, not from the ended run's step 2.
    await store.getState().step()
    s = store.getState()
    expect(s.timeline[0]?.parentId).toBe(s.timeline[1]?.checkpointId)
    expect(field(s, 'count')).toBe(11)
    expect(s.runState).toBe('done') // 11 is past the counter's limit: its router says done
    // Replay from step 0 while paused: a new run from there, to the end.
    await store.getState().replayFrom(at0)
    s = store.getState()
    expect(s.error).toBeNull()
    expect(s.runState).toBe('done')
    expect(field(s, 'count')).toBe(3)
  })

  it('a checkpoint picked while a history read is under way stays picked', async () => {
    // A run's last history read (or the live one, half a second on) may still be reading
    // the newest checkpoint when the user clicks an older one: the click wins.
    const { store, slow } = await ranWithHeld('inspectCheckpoint')
    const at2 = store.getState().timeline.find((t) => t.step === 2)?.checkpointId as string
    const held = slow.hold()
    const refresh = store.getState().refreshHistory()
    await held // the timeline is read; the inspection of the newest waits
    const pick = store.getState().selectCheckpoint(at2)
    slow.release()
    await Promise.all([refresh, pick])
    const s = store.getState()
    expect(s.selectedCheckpointId).toBe(at2)
    expect(s.inspection?.checkpointId).toBe(at2)
    expect(field(s, 'count')).toBe(2)
  })

  it('a diff read for a checkpoint no longer shown is dropped', async () => {
    const { store, slow } = await ranWithHeld('getState')
    const at = (step: number) =>
      store.getState().timeline.find((t) => t.step === step)?.checkpointId as string
    await store.getState().setDiffWanted(true)
    // The diff of step 1 waits on its read while step 2 is picked and diffed.
    const held = slow.hold()
    const first = store.getState().selectCheckpoint(at(1))
    await held
    await store.getState().selectCheckpoint(at(2))
    slow.release()
    await first
    const s = store.getState()
    expect(s.inspection?.step).toBe(2)
    expect(s.diff?.to).toBe(at(2))
    expect(s.diff?.changes).toContainEqual({
      path: ['count'],
      kind: 'changed',
      before: 1,
      after: 2,
    })
  })

  it('keeps an interrupt answerable after the state was edited first', async () => {
    const store = await setup(approval)
    store.getState().setInput('{"request": "a poem"}')
    await store.getState().run()
    expect(store.getState().runState).toBe('interrupted')
    const at = store.getState().timeline[0]?.checkpointId as string
    expect(await store.getState().forkFrom(at, '{"draft": "edited"}', 'write')).toBeNull()
    expect(store.getState().runState).toBe('interrupted')
    await store.getState().resume('true')
    const s = store.getState()
    expect(s.runState).toBe('done')
    expect(field(s, 'draft')).toBe('edited')
    expect(field(s, 'approved')).toBe(true)
  })

  it('leaving a thread with a paused run ends that run; coming back, Run continues it', async () => {
    const store = await setup()
    await store.getState().step()
    await store.getState().step()
    expect(store.getState().runState).toBe('paused')
    const main = store.getState().threadId
    await store.getState().newThread('other')
    await store.getState().switchThread(main)
    const s = store.getState()
    // Nothing of this tab's holds the thread: it is not shown as running elsewhere, and Run
    // continues from the newest checkpoint to the same end as an uninterrupted run.
    expect(s.runningElsewhere).toBe(false)
    expect(s.runState).toBe('interrupted') // stopped at its newest checkpoint, with tasks next
    await store.getState().run()
    expect(store.getState().runState).toBe('done')
    expect(field(store.getState(), 'count')).toBe(3)
    expect(store.getState().timeline.map((t) => t.step)).toEqual([3, 2, 1, 0, -1])
  })

  it('threads: new, rename, switch, delete, export and import', async () => {
    const store = await setup()
    await store.getState().run()
    const main = store.getState().threadId
    await store.getState().newThread('second')
    expect(store.getState().timeline).toEqual([])
    store.getState().setInput('{"count": 10}')
    await store.getState().run()
    await store.getState().renameThread(store.getState().threadId, 'second try')
    expect(store.getState().threads.map((t) => [t.name, t.count])).toEqual([
      ['main', 5],
      ['second try', 3],
    ])
    await store.getState().switchThread(main)
    expect(field(store.getState(), 'count')).toBe(3)

    const file = await store.getState().exportThread()
    expect(file?.fileName).toBe('counter.main.thread.json')
    await store.getState().importThread(file?.text ?? '', file?.fileName ?? '')
    let s = store.getState()
    expect(s.current?.trusted).toBe(false)
    await store.getState().trustCurrent()
    s = store.getState()
    expect(s.timeline).toHaveLength(5)
    expect(field(s, 'count')).toBe(3)
    // A broken file is refused, and nothing is added.
    const graphs = store.getState().graphs.length
    const broken = JSON.parse(file?.text ?? '{}') as { checkpoints: { checkpoint: object }[] }
    ;(broken.checkpoints[2] as { checkpoint: object }).checkpoint = { v: 1 }
    await store.getState().importThread(JSON.stringify(broken), 'broken.json')
    expect(store.getState().message).toMatch(/broken\.json: .*checkpoints\[2\]\.checkpoint/)
    expect(store.getState().graphs).toHaveLength(graphs)

    await store.getState().select('g')
    const second = store.getState().threads.find((t) => t.name === 'second try')
    await store.getState().deleteThread(second?.threadId as string)
    expect(store.getState().threads.map((t) => t.name)).toEqual(['main'])
  })

  it('a recursion limit set while an older thread list is on its way stands, and is kept', async () => {
    const service = await setupService()
    const store = await setup(counter, service)
    // A list asked for now (a trust, a run ending) is read before the setting is saved, and
    // its answer held back until after.
    const request = service.client.request.bind(service.client)
    let release = () => {}
    const held = new Promise<void>((r) => (release = r))
    service.client.request = ((type, params) => {
      if (type !== 'listThreads') return request(type, params)
      service.client.request = request
      return request(type, params).then(async (answer) => (await held, answer))
    }) as RuntimeClient['request']
    const stale = store.getState().refreshThreads()
    store.getState().setRecursionLimit(1000)
    const saved = async () => {
      const { threadId } = store.getState()
      const listed = await service.client.request('listThreads', { graph: 'g' })
      return listed.find((t) => t.threadId === threadId)?.settings?.recursionLimit
    }
    await expect.poll(saved).toBe(1000)
    // ...and arrives after the save landed: it shows the thread without settings.
    release()
    await stale
    expect(store.getState().recursionLimit).toBe(1000)
    // A list asked for after the save shows it; the page's own copy is no longer needed.
    await store.getState().refreshThreads()
    expect(store.getState().recursionLimit).toBe(1000)
    expect(store.getState().localRunSettings).toEqual({})
    const { threadId, threads } = store.getState()
    expect(threads.find((t) => t.threadId === threadId)?.settings?.recursionLimit).toBe(1000)
  })

  it("a fork of a subgraph's latest checkpoint while paused inside it is where Continue resumes it", async () => {
    const team = {
      state: [{ name: 'notes', reducer: 'append', default: [] }],
      nodes: [
        { id: 'research', code: "() => ({ notes: ['research'] })" },
        { id: 'write', code: "() => ({ notes: ['write'] })" },
      ],
      edges: [
        { from: '__start__', to: 'research' },
        { from: 'research', to: 'write' },
      ],
    }
    const doc = {
      superstep: 1,
      name: 'sup',
      state: [{ name: 'notes', reducer: 'append', default: [] }],
      nodes: [
        { id: 'plan', code: "() => ({ notes: ['plan'] })" },
        { id: 'team', kind: 'graph', graph: 'team' },
        { id: 'review', code: "() => ({ notes: ['review'] })" },
      ],
      edges: [
        { from: '__start__', to: 'plan' },
        { from: 'plan', to: 'team' },
        { from: 'team', to: 'review' },
      ],
      subgraphs: { team },
    }
    const store = await setup(doc)
    await store.getState().step()
    await store.getState().step()
    await store.getState().stepInto()
    await store.getState().step()
    const s = store.getState()
    expect(s.pausedBy?.inner?.next).toEqual(['write'])
    const ns = s.selectedNs
    expect(ns).toMatch(/^team:/)
    const error = await s.forkFrom(
      s.selectedCheckpointId as string,
      '{"notes": ["checked"]}',
      undefined,
      ns,
    )
    expect(error).toBeNull()
    expect(store.getState().inner[ns]?.[0]?.checkpointId).toBe(
      store.getState().selectedCheckpointId,
    )
    await store.getState().run()
    expect(store.getState().runState).toBe('done')
    await store.getState().selectCheckpoint(null)
    // The subgraph starts from the parent's notes (plan) and hands back all of its own.
    expect(field(store.getState(), 'notes')).toEqual([
      'plan',
      'plan',
      'research',
      'checked',
      'write',
      'review',
    ])
  })

  it('an interrupt two subgraphs down says where it was raised, also after a reload', async () => {
    const leaf = {
      state: [{ name: 'answer' }],
      nodes: [{ id: 'ask', code: "() => ({ answer: interrupt('Ship it?') })" }],
      edges: [{ from: '__start__', to: 'ask' }],
    }
    const mid = {
      state: [{ name: 'answer' }],
      nodes: [{ id: 'review', kind: 'graph', graph: 'leaf' }],
      edges: [{ from: '__start__', to: 'review' }],
    }
    const doc = {
      superstep: 1,
      name: 'deep',
      state: [{ name: 'answer' }],
      nodes: [{ id: 'team', kind: 'graph', graph: 'mid' }],
      edges: [{ from: '__start__', to: 'team' }],
      subgraphs: { mid, leaf },
    }
    const service = await setupService()
    const store = await setup(doc, service)
    await store.getState().run()
    const where = (s: ReturnType<typeof store.getState>) =>
      s.interrupts.map((i) => [i.node, i.path, i.ns?.split('|').length, i.value])
    expect(where(store.getState())).toEqual([['team', ['team', 'review', 'ask'], 2, 'Ship it?']])
    // A page opened later (a reload) finds the same question waiting.
    const reloaded = await setup(doc, service)
    await expect.poll(() => where(reloaded.getState())).toEqual(where(store.getState()))
    expect(reloaded.getState().runState).toBe('interrupted')
    await reloaded.getState().resume('"yes"')
    expect(reloaded.getState().runState).toBe('done')
  })

  it("a graph that no longer compiles shows its thread's history read only; fixed, it runs again", async () => {
    const service = await setupService()
    const store = await setup(counter, service)
    await store.getState().run()
    const ran = store.getState().timeline.map((t) => t.checkpointId)
    expect(ran.length).toBeGreaterThan(3)
    const code = "(state) => ({ count: 1, log: ['inc'] })"
    store.getState().edit({ type: 'setNodeCode', id: 'inc', code: '(state) => ({ count: ' })
    const requests: string[] = []
    const request = service.client.request.bind(service.client)
    service.client.request = ((type, params, transfer) => {
      requests.push(type)
      return request(type, params, transfer as Transferable[] | undefined)
    }) as RuntimeClient['request']
    await store.getState().run()
    let s = store.getState()
    expect(s.error).toMatchObject({ name: 'GraphProblemsError', node: 'inc' })
    expect(s.graphReadOnly).toBe(true)
    expect(requests).not.toContain('run')
    // The thread's history stays, and its checkpoints can be read.
    await store.getState().refreshHistory()
    s = store.getState()
    expect(s.timeline.map((t) => t.checkpointId)).toEqual(ran)
    await store.getState().selectCheckpoint(ran[2]!)
    expect(field(store.getState(), 'count')).toBe(1)
    // Nothing changes the thread: no fork, no step.
    expect(await store.getState().forkFrom(ran[2]!, '{"count": 5}')).toMatch(/has problems/)
    await store.getState().step()
    expect(requests.filter((r) => r === 'run' || r === 'updateState')).toEqual([])
    expect(store.getState().timeline.map((t) => t.checkpointId)).toEqual(ran)
    // Fixed, it compiles to run again.
    store.getState().edit({ type: 'setNodeCode', id: 'inc', code })
    await store.getState().run()
    s = store.getState()
    expect(s.graphReadOnly).toBe(false)
    expect(s.runState).toBe('done')
    expect(s.timeline.length).toBeGreaterThan(ran.length)
  })

  it("an untrusted graph's thread can be read, not run", async () => {
    const service = await setupService()
    const trusted = await setup(counter, service)
    await trusted.getState().run()
    const count = trusted.getState().timeline.length
    const store = createAppStore({
      client: service.client,
      graphs: memoryGraphs(),
      examples: [{ id: 'g', name: 'g', doc: counter, trusted: false, allowNetwork: false }],
      newId: () => 'x',
    })
    await store.getState().init()
    const s = store.getState()
    expect(s.graphReadOnly).toBe(true)
    expect(s.timeline).toHaveLength(count)
    expect(field(s, 'count')).toBe(3)
    expect(await s.forkFrom(s.timeline[0]!.checkpointId, '{}')).toMatch(/not trusted/)
  })
})
