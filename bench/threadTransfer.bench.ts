/**
 * Big threads in storage (Node, the real RuntimeService over fake-indexeddb): importing a
 * thread file of 2,002 and 10,002 checkpoints, exporting it again, and what opening it reads
 * (listThreads, the first timeline page, the latest checkpoint's inspection). Prints each
 * against a reference measured in the same run: JSON.parse + JSON.stringify of the same file
 * (the least any import or export must do).  Run: npx tsx bench/threadTransfer.bench.ts
 */
import { performance } from 'node:perf_hooks'
import { closeAll, setup } from '../src/worker/serviceHarness'
import { makeThreadFile } from './threadFiles'

const SIZES = (process.env.BENCH_SIZES ?? '2000,10000').split(',').map(Number)

async function time<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now()
  const r = await f()
  return [r, performance.now() - t0]
}

const ms = (n: number) => `${n.toFixed(0).padStart(6)} ms`

for (const steps of SIZES) {
  const file = await makeThreadFile(steps)
  const [text, stringifyMs] = await time(async () => JSON.stringify(file, null, 2))
  const [, parseMs] = await time(async () => JSON.parse(text) as unknown)
  const ref = stringifyMs + parseMs
  const t = await setup()
  const graphId = await t.compile(file.graph)
  const threadId = `g:${steps}`
  const events: number[] = []
  t.client.on((e) => {
    if (e.type === 'thread_transfer') events.push(e.done)
  })
  // What the app does: the worker reads and checks the file, then writes it in batches.
  const [, importMs] = await time(async () => {
    const read = await t.client.request('readThreadFile', { file: new Blob([text]) })
    const file = { superstepThread: 1, staged: read.fileId }
    return t.client.request('importThread', { file, threadId, graph: 'g', name: 'big' })
  })
  const [, listMs] = await time(() => t.client.request('listThreads', { graph: 'g' }))
  const [, timelineMs] = await time(() =>
    t.client.request('getTimeline', { graphId, threadId, limit: 200 }),
  )
  const [, inspectMs] = await time(() =>
    t.client.request('inspectCheckpoint', { graphId, threadId }),
  )
  const [out, exportMs] = await time(() =>
    t.client.request('exportThreadFile', { threadId, name: 'big', graph: file.graph }),
  )
  const old = await t.client.request('exportThread', { threadId })
  const same =
    (await out.file.text()) ===
    `${JSON.stringify({ ...old, name: 'big', graph: file.graph }, null, 2)}\n`
  const n = file.checkpoints.length.toLocaleString('en')
  console.log(`${n} checkpoints, ${(text.length / 1e6).toFixed(1)} MB file`)
  console.log(`  reference (JSON.stringify + JSON.parse) ${ms(ref)}`)
  console.log(
    `  import   ${ms(importMs)}  ${(importMs / ref).toFixed(1)}x reference, ${events.length} progress events`,
  )
  console.log(
    `  export   ${ms(exportMs)}  ${(exportMs / ref).toFixed(1)}x reference, same text as before: ${same}`,
  )
  console.log(
    `  open: listThreads ${ms(listMs)}, timeline page ${ms(timelineMs)}, inspect latest ${ms(inspectMs)}`,
  )
  closeAll()
}
