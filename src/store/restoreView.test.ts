import { afterEach, expect, it } from 'vitest'
import { chain, closeAll, setup as setupService } from '../worker/serviceHarness'
import { createAppStore } from './appStore'
import { memoryGraphs } from './memoryGraphs'
import { fakeLocalStorage } from './fakeLocalStorage'
import { saveView } from './viewMemory'

let restore: (() => void) | undefined
afterEach(() => {
  restore?.()
  closeAll()
})

const openPage = (service: Awaited<ReturnType<typeof setupService>>) => {
  let id = 0
  return createAppStore({
    client: service.client,
    graphs: memoryGraphs(),
    examples: [{ id: 'g', name: 'chain', doc: chain, trusted: true, allowNetwork: false }],
    newId: () => `id${++id}`,
  })
}

it('a thread picked as soon as a reloaded page lists it wins over the thread the reload puts back', async () => {
  restore = fakeLocalStorage()
  const service = await setupService()
  const first = openPage(service)
  await first.getState().init()
  const main = first.getState().threadId
  await first.getState().newThread('second')
  const second = first.getState().threadId
  expect(second).not.toBe(main)
  // The page was on the second thread when it reloaded.
  saveView({ graph: 'g', graphs: { g: { thread: second as string } } })

  const page = openPage(service)
  // The user picks main the moment the reloaded page lists both threads (the graph is
  // still opening then: the restore has not run).
  let picked: Promise<void> | undefined
  const stop = page.subscribe((s) => {
    if (!picked && s.threads.length === 2) picked = s.switchThread(main as string)
  })
  await page.getState().init()
  stop()
  expect(picked).toBeDefined()
  await picked
  await page.getState().refreshThreads()
  expect(page.getState().threadId).toBe(main)
})
