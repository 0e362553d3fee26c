import { afterEach, expect, it } from 'vitest'
import { RuntimeClient } from './client'
import { DeferredRuntimeClient } from './deferredClient'
import type { WorkerEvent, WorkerMessage, WorkerRequest } from './protocol'

/** A real client over a fake worker (a MessageChannel) that answers every request with its type. */
function runtime() {
  const { port1, port2 } = new MessageChannel()
  ports.push(port1, port2)
  const received: string[] = []
  port2.onmessage = (e: MessageEvent<WorkerRequest>) => {
    received.push(e.data.type)
    port2.postMessage({
      type: 'response',
      id: e.data.id,
      ok: true,
      result: { count: received.length },
    } satisfies WorkerMessage)
  }
  const emit = (events: WorkerEvent[]) => port2.postMessage({ type: 'events', events })
  return { client: new RuntimeClient(port1), received, emit }
}

const ports: MessagePort[] = []
afterEach(() => {
  for (const p of ports.splice(0)) p.close()
})

const keys = { keys: {} }
const event: WorkerEvent = {
  type: 'run_started',
  runId: 'r',
  threadId: 't',
  graphId: 'g',
  mode: 'toEnd',
}

it('sends requests made before the runtime started, in their order, once it has', async () => {
  const rt = runtime()
  let start!: (c: RuntimeClient) => void
  const client = new DeferredRuntimeClient(new Promise((r) => (start = r)))
  const first = client.request('setModelKeys', keys)
  const second = client.request('listThreads', {})
  await new Promise((r) => setTimeout(r, 10))
  expect(rt.received).toEqual([]) // nothing can go before the start
  start(rt.client)
  expect(await first).toEqual({ count: 1 })
  expect(await second).toEqual({ count: 2 })
  expect(rt.received).toEqual(['setModelKeys', 'listThreads'])
  // Once started, requests go straight through.
  expect(await client.request('setModelKeys', keys)).toEqual({ count: 3 })
})

it('moves listeners added before the start onto the runtime, and removes them when asked', async () => {
  const rt = runtime()
  let start!: (c: RuntimeClient) => void
  const client = new DeferredRuntimeClient(new Promise((r) => (start = r)))
  const seen: string[] = []
  const batches: number[] = []
  const offEvent = client.on((e) => seen.push(e.type))
  client.onBatch((events) => batches.push(events.length))
  const gone = client.on(() => seen.push('removed before the start'))
  gone()
  start(rt.client)
  await client.request('listThreads', {})
  rt.emit([event, event])
  await client.request('listThreads', {}) // the events came before this answer
  expect(seen).toEqual(['run_started', 'run_started'])
  expect(batches).toEqual([2])
  offEvent()
  rt.emit([event])
  await client.request('listThreads', {})
  expect(seen).toHaveLength(2)
  expect(batches).toEqual([2, 1])
})

it('fails each request with the reason when the runtime cannot start', async () => {
  const client = new DeferredRuntimeClient(Promise.reject(new Error('The worker did not start')))
  await expect(client.request('listThreads', {})).rejects.toThrow('The worker did not start')
  client.on(() => undefined) // and listening is harmless
})
