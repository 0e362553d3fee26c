import { expect, test, type Page } from '@playwright/test'

/**
 * A database written by the previous release (schema version 3: a row per pending write and
 * per task run) opens in this one, upgraded in real Chromium: the thread reads as it did, its
 * paused interrupt resumes, and the old tables are gone.
 */

const status = (page: Page) => page.getByLabel('Run status')
const rows = (page: Page) => page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')

/**
 * Rewrites the app's database as version 3 stored it: the same rows, each checkpoint's
 * `writes` and `runs` back in tables of their own (writes numbered in their order), and the
 * values a row holds as value rows.
 */
async function asVersion3(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result)
        r.onerror = () => reject(r.error)
      })
    const open = (version?: number, upgrade?: (db: IDBDatabase) => void) =>
      new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open('superstep', version)
        if (upgrade) r.onupgradeneeded = () => upgrade(r.result)
        r.onsuccess = () => resolve(r.result)
        r.onerror = () => reject(r.error)
      })
    const now = await open()
    const all: Record<string, Record<string, unknown>[]> = {}
    const tx = now.transaction(['checkpoints', 'blobs', 'graphs', 'threads'])
    for (const name of ['checkpoints', 'blobs', 'graphs', 'threads'])
      all[name] = (await request(tx.objectStore(name).getAll())) as Record<string, unknown>[]
    now.close()
    // The app's own connections close when asked (Dexie's default; the worker's a moment
    // later, which may fire `blocked` first): the delete goes on then.
    await new Promise<void>((resolve, reject) => {
      const r = indexedDB.deleteDatabase('superstep')
      r.onsuccess = () => resolve()
      r.onerror = () => reject(r.error)
    })
    const old = await open(30, (db) => {
      const checkpoints = db.createObjectStore('checkpoints', {
        keyPath: ['threadId', 'checkpointId'],
      })
      checkpoints.createIndex('[threadId+seq]', ['threadId', 'seq'])
      db.createObjectStore('blobs', { keyPath: ['threadId', 'checkpointId', 'channel'] })
      const writes = db.createObjectStore('writes', { keyPath: 'id', autoIncrement: true })
      writes.createIndex('[threadId+checkpointId]', ['threadId', 'checkpointId'])
      writes.createIndex(
        '[threadId+checkpointId+taskId+key]',
        ['threadId', 'checkpointId', 'taskId', 'key'],
        { unique: true },
      )
      db.createObjectStore('graphs', { keyPath: 'id' }).createIndex('updatedAt', 'updatedAt')
      db.createObjectStore('threads', { keyPath: 'threadId' }).createIndex('graph', 'graph')
      const runs = db.createObjectStore('taskRuns', {
        keyPath: ['threadId', 'checkpointId', 'taskId'],
      })
      runs.createIndex('[threadId+checkpointId]', ['threadId', 'checkpointId'])
    })
    const put = old.transaction(
      ['checkpoints', 'blobs', 'writes', 'graphs', 'threads', 'taskRuns'],
      'readwrite',
    )
    for (const name of ['blobs', 'graphs', 'threads'])
      for (const row of all[name] ?? []) put.objectStore(name).put(row)
    // Oldest first, as a run stores them: write ids follow the order they were stored.
    const sorted = [...(all.checkpoints ?? [])].sort((a, b) => Number(a.seq) - Number(b.seq))
    for (const { writes, runs, values, ...row } of sorted) {
      const keys = { threadId: row.threadId, checkpointId: row.checkpointId }
      for (const w of (writes ?? []) as object[]) put.objectStore('writes').add({ ...w, ...keys })
      for (const r of (runs ?? []) as object[]) put.objectStore('taskRuns').put({ ...r, ...keys })
      // Every value a value row (version 5 lets a delta row hold its small ones).
      for (const [channel, v] of Object.entries((values ?? {}) as Record<string, object>))
        put.objectStore('blobs').put({ ...v, ...keys, channel })
      put.objectStore('checkpoints').put(row)
    }
    await new Promise<void>((resolve, reject) => {
      put.oncomplete = () => resolve()
      put.onerror = () => reject(put.error)
    })
    old.close()
  })
}

test('a version 3 database upgrades in place: the thread reads as before and its interrupt resumes', async ({
  page,
}) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await page.getByRole('button', { name: 'New graph from template human approval gate' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'human approval gate' })).toBeAttached()
  await page.getByRole('tab', { name: 'Input', exact: true }).click()
  await page.getByLabel('Input request').fill('"a poem"')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveText('Waiting for a reply to interrupt() in review')
  // What the timeline shows: each step's tasks with the durations their runs recorded.
  await expect(rows(page).first()).toContainText(/ms/)
  const before = await rows(page).allInnerTexts()
  /** Each checkpoint's Writes tab: the writes of the tasks that made it, and those pending on it. */
  const writes = async () => {
    const out: string[] = []
    for (let i = 0; i < before.length; i++) {
      await rows(page).nth(i).click()
      await page.getByRole('tab', { name: 'Writes', exact: true }).click()
      await expect(rows(page).nth(i)).toHaveAttribute('aria-selected', 'true')
      out.push(await page.getByRole('tabpanel').innerText())
    }
    await rows(page).first().click() // back to the latest
    return out
  }
  const writesBefore = await writes()
  expect(writesBefore.join('\n')).toContain('draft ←')

  await asVersion3(page)
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'human approval gate' })).toBeAttached()
  // The paused state is read from the interrupt's pending write on the latest checkpoint.
  await expect(status(page)).toHaveText('Waiting for a reply to interrupt() in review')
  await expect(rows(page)).toHaveCount(before.length)
  expect(await rows(page).allInnerTexts()).toEqual(before)
  expect(await writes()).toEqual(writesBefore)
  const stored = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('superstep')
      r.onsuccess = () => resolve(r.result)
      r.onerror = () => reject(r.error)
    })
    const out = { version: db.version, stores: [...db.objectStoreNames] }
    db.close()
    return out
  })
  expect(stored).toEqual({
    version: 50,
    stores: ['blobs', 'checkpoints', 'graphs', 'threads'],
  })

  // The interrupt's pending write came through: the reply resumes the run.
  await page.getByRole('tab', { name: 'Interrupt', exact: true }).click()
  await expect(page.getByRole('tabpanel')).toContainText('Approve this draft?')
  await page.getByRole('textbox', { name: 'Reply' }).fill('true')
  await page.getByRole('button', { name: 'Resume' }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
})
