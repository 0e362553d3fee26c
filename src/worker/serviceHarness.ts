/**
 * The runtime service for tests: the real service behind a MessageChannel, Dexie over
 * fake-indexeddb, code run locally (LocalCodeHost). Not part of the app.
 */
import 'fake-indexeddb/auto'
import { RuntimeClient } from './client'
import { LocalCodeHost } from './localCodeHost'
import type { WorkerEvent } from './protocol'
import { RuntimeService } from './service'
import { openDexieStorage, type WorkerStorage } from './storage'

export const chain = {
  superstep: 1,
  name: 'chain',
  state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }],
  nodes: [
    { id: 'a', code: "(s) => { console.info('a ran'); return { x: 'a', log: ['a'] } }" },
    { id: 'b', code: "(s) => ({ x: 'b', log: ['b'] })" },
  ],
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'a', to: 'b' },
  ],
}

let dbs = 0
const cleanup: (() => void)[] = []

/** Closes what `setup` opened; call it in `afterEach`. */
export function closeAll(): void {
  for (const c of cleanup.splice(0)) c()
}

/** The real service behind a MessageChannel, Dexie over fake-indexeddb, code run locally. */
export async function setup(
  o: {
    init?: boolean
    sandbox?: boolean
    /** Changes the storage the service opens (a failing part, say). */
    storage?: (s: WorkerStorage) => WorkerStorage
  } = {},
) {
  const { port1, port2 } = new MessageChannel()
  const host = new LocalCodeHost()
  const sandboxPorts: MessagePort[] = []
  let opened: WorkerStorage | undefined
  const service = new RuntimeService({
    post: (m) => port2.postMessage(m),
    openStorage: (name) => (opened = (o.storage ?? ((s) => s))(openDexieStorage(name))),
    connectSandbox: (port) => {
      sandboxPorts.push(port)
      return host
    },
    sandboxWaitMs: 100,
  })
  port2.onmessage = (e: MessageEvent) => void service.receive(e.data)
  const client = new RuntimeClient(port1)
  const events: WorkerEvent[] = []
  const batches: number[] = []
  client.on((e) => events.push(e))
  client.onBatch((b) => batches.push(b.length))
  const dbName = `service-test-${++dbs}`
  cleanup.push(() => {
    client.dispose()
    port1.close()
    port2.close()
    for (const p of sandboxPorts) p.close()
  })
  if (o.init !== false) await client.request('init', { dbName })
  if (o.sandbox !== false) {
    const fake = new MessageChannel()
    cleanup.push(() => fake.port2.close())
    await client.request('sandboxPort', { port: fake.port1 }, [fake.port1])
  }
  const compile = async (graph: unknown = chain) => {
    const r = await client.request('compile', { graph })
    if (!r.ok) throw new Error(JSON.stringify(r.issues))
    return r.graphId
  }
  /** What the service opened at `init`. */
  const storage = (): WorkerStorage => {
    if (!opened) throw new Error('not initialised')
    return opened
  }
  return { client, host, events, batches, compile, sandboxPorts, dbName, storage }
}
