import { afterEach, describe, expect, it } from 'vitest'
import type { RunParams, ThreadInfo } from '../worker/protocol'
import type { RuntimeClient } from '../worker/client'
import { closeAll, setup as setupService } from '../worker/serviceHarness'
import { createAppStore } from './appStore'
import { memoryGraphs } from './memoryGraphs'
import { followRunSettings, runConfigurable } from './settingsSlice'

const thread = (threadId: string, settings?: ThreadInfo['settings']): ThreadInfo => ({
  threadId,
  name: threadId,
  graph: 'g',
  count: 0,
  ...(settings && { settings }),
})

describe("the open thread's run settings", () => {
  it('a thread list asked for before the save landed does not undo what the user just set', () => {
    const typed = { recursionLimit: 1000, timeoutMs: 0, configurable: {} }
    const page = { threadId: 'g:main', recursionLimit: 1000, timeoutMs: 0, configurable: {} }
    // Not landed yet: neither a stale list nor the page's own patch of it settles anything.
    const unsaved = { 'g:main': typed }
    expect(
      followRunSettings({
        ...page,
        threads: [thread('g:main')],
        threadsRead: 7,
        localRunSettings: unsaved,
      }),
    ).toBeNull()
    expect(
      followRunSettings({
        ...page,
        threads: [thread('g:main', typed)],
        threadsRead: 7,
        localRunSettings: unsaved,
      }),
    ).toBeNull()
    // Landed when 3 lists had been asked for: list 3, whatever it shows, is older than the save.
    const landed = { 'g:main': { ...typed, savedBy: 3 } }
    expect(
      followRunSettings({
        ...page,
        threads: [thread('g:main')],
        threadsRead: 3,
        localRunSettings: landed,
      }),
    ).toBeNull()
    // List 4 was asked for after: what it shows stands, and the page's own is dropped.
    expect(
      followRunSettings({
        ...page,
        threads: [thread('g:main', typed)],
        threadsRead: 4,
        localRunSettings: landed,
      }),
    ).toEqual({ localRunSettings: {}, ...typed })
  })

  it("a stale list shown while the user's value is on screen puts the user's value back", () => {
    const typed = { recursionLimit: 1000, timeoutMs: 0, configurable: {} }
    expect(
      followRunSettings({
        threadId: 'g:main',
        recursionLimit: 25,
        timeoutMs: 0,
        configurable: {},
        threads: [thread('g:main')],
        threadsRead: 2,
        localRunSettings: { 'g:main': { ...typed, savedBy: 2 } },
      }),
    ).toEqual(typed)
  })

  it('opening a thread shows the settings it keeps (the defaults when none)', () => {
    const page = {
      recursionLimit: 1000,
      timeoutMs: 0,
      configurable: { who: 'Ada' },
      localRunSettings: {},
      threadsRead: 1,
    }
    const threads = [
      thread('g:a', { recursionLimit: 50, configurable: { who: 'Bo' } }),
      thread('g:b'),
    ]
    expect(followRunSettings({ ...page, threadId: 'g:a', threads })).toEqual({
      recursionLimit: 50,
      timeoutMs: 0,
      configurable: { who: 'Bo' },
    })
    expect(followRunSettings({ ...page, threadId: 'g:b', threads })).toEqual({
      recursionLimit: 25,
      timeoutMs: 0,
      configurable: {},
    })
  })
})

/** A graph that declares three settings and writes what its node reads of them. */
const GREETER = {
  superstep: 1,
  name: 'greeter',
  config: [
    { name: 'greeting', type: 'string', default: 'hello', description: 'How to greet.' },
    { name: 'times', type: 'number', default: 1 },
    { name: 'shout', type: 'boolean' },
  ],
  state: [{ name: 'text' }],
  nodes: [
    {
      id: 'greet',
      code: "(s, config) => { const c = config.configurable; return { text: c.greeting + ' x' + c.times + (c.shout ? '!' : '') } }",
    },
  ],
  edges: [
    { from: '__start__', to: 'greet' },
    { from: 'greet', to: '__end__' },
  ],
}

/** The page's store over the real runtime service (fake-indexeddb); `runs`: what Run sent. */
async function openPage(service: Awaited<ReturnType<typeof setupService>>) {
  const runs: RunParams[] = []
  const client = Object.create(service.client) as RuntimeClient
  const request = service.client.request.bind(service.client)
  client.request = ((type, params, transfer) => {
    if (type === 'run') runs.push(params as RunParams)
    return request(type, params, transfer as Transferable[] | undefined)
  }) as RuntimeClient['request']
  let id = 0
  const store = createAppStore({
    client,
    graphs: memoryGraphs(),
    examples: [{ id: 'g', name: 'greeter', doc: GREETER, trusted: true, allowNetwork: false }],
    newId: () => `id${++id}`,
  })
  await store.getState().init()
  return { store, runs }
}

type Page = Awaited<ReturnType<typeof openPage>>['store']
const text = (store: Page) =>
  store.getState().inspection?.channels.find((c) => c.name === 'text')?.value
/** The thread's settings as the worker keeps them (what a reload reads). */
const kept = async (service: Awaited<ReturnType<typeof setupService>>, threadId: string) =>
  (await service.client.request('listThreads', { graph: 'g' })).find((t) => t.threadId === threadId)
    ?.settings?.configurable

describe("a thread's own values of the graph's settings", () => {
  afterEach(closeAll)

  it('are sent with its runs, kept per thread, and survive a switch and a reload', async () => {
    const service = await setupService()
    const { store, runs } = await openPage(service)
    const main = store.getState().threadId
    store.getState().setConfigValue('greeting', 'hi')
    store.getState().setConfigValue('times', 2)
    expect(store.getState().configurable).toEqual({ greeting: 'hi', times: 2 })
    await store.getState().run()
    expect(runs.at(-1)?.configurable).toEqual({ greeting: 'hi', times: 2 })
    expect(text(store)).toBe('hi x2')
    await expect.poll(() => kept(service, main)).toEqual({ greeting: 'hi', times: 2 })

    // Another thread has its own: none at first (the defaults), then a value of its own.
    await store.getState().newThread('other')
    const other = store.getState().threadId
    expect(store.getState().configurable).toEqual({})
    store.getState().setConfigValue('shout', true)
    await store.getState().run()
    expect(runs.at(-1)?.configurable).toEqual({ shout: true })
    expect(text(store)).toBe('hello x1!')
    await expect.poll(() => kept(service, other)).toEqual({ shout: true })

    // Back and forth: each thread shows its own.
    await store.getState().switchThread(main)
    expect(store.getState().configurable).toEqual({ greeting: 'hi', times: 2 })
    // Cleared: the default is back, and the run sends nothing for it.
    store.getState().setConfigValue('greeting', undefined)
    await store.getState().run()
    expect(runs.at(-1)?.configurable).toEqual({ times: 2 })
    expect(text(store)).toBe('hello x2')
    await store.getState().switchThread(other)
    expect(store.getState().configurable).toEqual({ shout: true })
    await expect.poll(() => kept(service, main)).toEqual({ times: 2 })

    // A reload: a new page over the same storage reads each thread's own.
    const reloaded = (await openPage(service)).store
    await reloaded.getState().switchThread(main)
    await reloaded.getState().refreshThreads()
    expect(reloaded.getState().configurable).toEqual({ times: 2 })
    await reloaded.getState().switchThread(other)
    expect(reloaded.getState().configurable).toEqual({ shout: true })
  })

  it('a run sends only the settings the graph declares now, each of its type', () => {
    const spec = { config: GREETER.config as { name: string; type: 'string' | 'number' }[] }
    const own = { greeting: 'hi', times: 'two', gone: 1 }
    expect(runConfigurable(spec, own)).toEqual({ greeting: 'hi' })
    expect(runConfigurable({}, own)).toEqual({})
    expect(runConfigurable(null, own)).toEqual({})
  })
})
