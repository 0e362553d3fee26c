import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest'
import { RuntimeClient, RuntimeRequestError } from './client'
import type { RunOutcome, WorkerEvent, WorkerMessage, WorkerRequest } from './protocol'

/** A fake worker on the other end of a MessageChannel: answers as the test says. */
function setup(answer: (req: WorkerRequest, port: MessagePort) => WorkerMessage | null) {
  const { port1, port2 } = new MessageChannel()
  const received: WorkerRequest[] = []
  port2.onmessage = (e: MessageEvent<WorkerRequest>) => {
    received.push(e.data)
    const reply = answer(e.data, port2)
    if (reply) port2.postMessage(reply)
  }
  let terminated = false
  const client = new RuntimeClient(port1, { terminate: () => (terminated = true) })
  ports.push(port1, port2)
  return { client, worker: port2, received, terminated: () => terminated }
}

const ports: MessagePort[] = []
afterEach(() => {
  for (const p of ports.splice(0)) p.close()
})

const done: RunOutcome = { runId: 'r1', status: 'done', checkpointId: 'c9' }

describe('RuntimeClient', () => {
  it('round-trips typed requests', async () => {
    const t = setup((req) => {
      switch (req.type) {
        case 'run':
          return { type: 'response', id: req.id, ok: true, result: done }
        case 'listThreads':
          return { type: 'response', id: req.id, ok: true, result: [] }
        default:
          return null
      }
    })
    const outcome = await t.client.request('run', {
      graphId: 'g',
      threadId: 't',
      input: { x: 1 },
      mode: 'toEnd',
    })
    expectTypeOf(outcome).toEqualTypeOf<RunOutcome>()
    expect(outcome).toEqual(done)
    expect(await t.client.request('listThreads', {})).toEqual([])
    expect(t.received.map((r) => [r.id, r.type])).toEqual([
      [1, 'run'],
      [2, 'listThreads'],
    ])
    expect(t.client.pendingCount).toBe(0)
  })

  it('matches answers to requests by id, whatever their order', async () => {
    const held: WorkerRequest[] = []
    const t = setup((req, port) => {
      held.push(req)
      if (held.length === 2) {
        for (const r of [...held].reverse())
          port.postMessage({
            type: 'response',
            id: r.id,
            ok: true,
            result: { pausing: r.id === 1 },
          })
      }
      return null
    })
    const [a, b] = await Promise.all([
      t.client.request('pause', { threadId: 'a' }),
      t.client.request('pause', { threadId: 'b' }),
    ])
    expect([a, b]).toEqual([{ pausing: true }, { pausing: false }])
  })

  it('rejects with an error matched by name and code', async () => {
    const t = setup((req) => ({
      type: 'response',
      id: req.id,
      ok: false,
      error: { name: 'ThreadBusyError', message: 'busy', code: 'THREAD_BUSY', node: 'a', line: 2 },
    }))
    const err = await t.client
      .request('continue', { threadId: 't', mode: 'step' })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RuntimeRequestError)
    expect(err).toMatchObject({
      name: 'ThreadBusyError',
      code: 'THREAD_BUSY',
      message: 'busy',
      node: 'a',
      line: 2,
    })
  })

  it('rejects every pending call on dispose, and later calls at once', async () => {
    const t = setup(() => null) // a worker that never answers
    const calls = [
      t.client.request('getState', { graphId: 'g', threadId: 't' }),
      t.client.request('run', { graphId: 'g', threadId: 't', input: null, mode: 'step' }),
    ]
    await new Promise((r) => setTimeout(r, 5))
    expect(t.client.pendingCount).toBe(2)
    t.client.dispose()
    for (const c of calls)
      await expect(c).rejects.toMatchObject({ name: 'RuntimeDisposedError', code: 'DISPOSED' })
    await expect(t.client.request('listThreads', {})).rejects.toMatchObject({ code: 'DISPOSED' })
    expect(t.client.pendingCount).toBe(0)
  })

  it('terminate() rejects pending calls and ends the worker', async () => {
    const t = setup(() => null)
    const call = t.client.request('listThreads', {})
    t.client.terminate()
    await expect(call).rejects.toMatchObject({ code: 'DISPOSED' })
    expect(t.terminated()).toBe(true)
  })

  it('rejects pending calls with the error when the worker fails', async () => {
    const t = setup(() => null)
    const call = t.client.request('listThreads', {})
    t.client.fail(
      new RuntimeRequestError({ name: 'RuntimeWorkerError', code: 'WORKER_FAILED', message: 'x' }),
    )
    await expect(call).rejects.toMatchObject({ name: 'RuntimeWorkerError', code: 'WORKER_FAILED' })
  })

  it('fails one call whose params cannot be cloned, and no other', async () => {
    const t = setup((req) => ({ type: 'response', id: req.id, ok: true, result: [] }))
    const bad = t.client.request('compile', { graph: { f: () => 1 } })
    await expect(bad).rejects.toMatchObject({ name: 'DataCloneError' })
    expect(await t.client.request('listThreads', {})).toEqual([])
  })

  it('delivers batched events one at a time in order, and whole batches', async () => {
    const ev = (step: number): WorkerEvent => ({
      type: 'step_started',
      threadId: 't',
      runId: 'r',
      step,
      tasks: [],
    })
    const t = setup(() => null)
    const one: WorkerEvent[] = []
    const batches: (readonly WorkerEvent[])[] = []
    const off = t.client.on((e) => one.push(e))
    t.client.onBatch((b) => batches.push(b))
    t.client.on(() => {
      throw new Error('a bad listener') // must not keep the others from their events
    })
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {})
    t.worker.postMessage({ type: 'events', events: [ev(0), ev(1)] })
    t.worker.postMessage({ type: 'events', events: [ev(2)] })
    await new Promise((r) => setTimeout(r, 10))
    expect(one).toEqual([ev(0), ev(1), ev(2)])
    expect(batches).toEqual([[ev(0), ev(1)], [ev(2)]])
    expect(reported).toHaveBeenCalledWith(expect.objectContaining({ message: 'a bad listener' }))
    off()
    t.worker.postMessage({ type: 'events', events: [ev(3)] })
    await new Promise((r) => setTimeout(r, 10))
    expect(one).toHaveLength(3)
    reported.mockRestore()
  })

  it('ignores answers to unknown ids and non-messages', async () => {
    const t = setup((req) => ({
      type: 'response',
      id: req.id,
      ok: true,
      result: { deleted: true },
    }))
    t.worker.postMessage({ type: 'response', id: 999, ok: true, result: null })
    t.worker.postMessage('noise')
    expect(await t.client.request('deleteThread', { threadId: 't' })).toEqual({ deleted: true })
  })
})
