import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, expect, test, type Page } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium'

/** Storage that cannot be used says so once, clearly, and loses nothing. */

test("a newer version's database is refused with one clear page, and left as it was", async ({
  page,
}) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  // A newer Superstep upgrades the database (version 9 of the schema, a table of its own).
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const r = indexedDB.open('superstep', 90)
        r.onupgradeneeded = () => r.result.createObjectStore('fromTheFuture')
        r.onsuccess = () => {
          r.result.close()
          resolve()
        }
        r.onerror = () => reject(r.error)
        r.onblocked = () => reject(new Error('blocked'))
      }),
  )
  await page.reload()
  const alert = page.getByRole('alert', { name: 'Superstep could not start' })
  await expect(alert).toContainText('from a newer version of Superstep')
  await expect(alert).toContainText('at version 9; this version of Superstep reads up to version 5')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toHaveCount(0)
  const version = await page.evaluate(
    async () => (await indexedDB.databases()).find((d) => d.name === 'superstep')?.version,
  )
  expect(version).toBe(90)
})

test('a newer version opened in another tab: this one says so at once, and a reload goes on', async ({
  page,
  context,
}) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await expect(page.getByLabel('Save state')).toHaveText('Saved')
  // The other tab: a newer Superstep upgrades the database (it waits for this tab to let go).
  const other = await context.newPage()
  await other.goto('/favicon.svg')
  const upgraded = other.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const r = indexedDB.open('superstep', 90)
        r.onupgradeneeded = () => r.result.createObjectStore('fromTheFuture')
        r.onsuccess = () => {
          const v = r.result.version
          r.result.close()
          resolve(v)
        }
        r.onerror = () => reject(r.error)
      }),
  )
  expect(await upgraded).toBe(90)
  const alert = page.getByRole('alert', { name: 'Superstep was updated in another tab' })
  await expect(alert).toContainText('can no longer read or save it')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toHaveCount(0)
  await expect(alert.getByRole('button', { name: 'Reload' })).toBeFocused()
  // This tab runs the older version still: after the reload, it refuses the newer data.
  await alert.getByRole('button', { name: 'Reload' }).click()
  await expect(page.getByRole('alert', { name: 'Superstep could not start' })).toContainText(
    'from a newer version of Superstep',
  )
})

/** Fills the origin's storage until even a 512-byte write is refused (random data: no compression). */
async function fillStorage(page: Page): Promise<void> {
  const refused = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('filler', 1)
      r.onupgradeneeded = () => r.result.createObjectStore('x')
      r.onsuccess = () => resolve(r.result)
      r.onerror = () => reject(r.error)
    })
    let n = 0
    const refusals: string[] = []
    for (const size of [1 << 20, 1 << 16, 1 << 12, 1 << 9]) {
      for (let tries = 0; tries < 5000; tries++) {
        const data: Uint8Array[] = []
        for (let left = size; left > 0; left -= 65536)
          data.push(crypto.getRandomValues(new Uint8Array(Math.min(65536, left))))
        const error = await new Promise<string | null>((resolve) => {
          const t = db.transaction('x', 'readwrite')
          t.objectStore('x').put(data, n++)
          t.oncomplete = () => resolve(null)
          t.onabort = () => resolve(t.error?.name ?? 'AbortError')
        })
        if (error) {
          refusals.push(error)
          break
        }
      }
    }
    db.close()
    return refusals
  })
  expect(refused).toEqual([
    'QuotaExceededError',
    'QuotaExceededError',
    'QuotaExceededError',
    'QuotaExceededError',
  ])
}

test('a full disk: the save says so, the edit stays, and it is saved once there is room', async ({
  baseURL,
}) => {
  test.setTimeout(180_000)
  // A small disk of its own: a tmpfs (needs root, as CI and this machine have).
  const disk = mkdtempSync(join(tmpdir(), 'superstep-disk-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=40m', 'tmpfs', disk], { stdio: 'pipe' })
  } catch (e) {
    rmSync(disk, { recursive: true, force: true })
    test.skip(true, `no small disk to fill: mount refused (${(e as Error).message.split('\n')[0]})`)
  }
  const context = await chromium.launchPersistentContext(join(disk, 'profile'), {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  })
  try {
    const page = context.pages()[0] ?? (await context.newPage())
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    await page.goto(baseURL ?? '')
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
    await fillStorage(page)
    await page.getByRole('button', { name: 'Add node', exact: true }).click()
    const message = page.getByRole('status', { name: 'Message' })
    await expect(message).toContainText('Saving failed: the disk this browser stores to is full')
    // What can be deleted: the threads that hold the most.
    await expect(message).toContainText('the biggest threads: main of counter (5 checkpoints)')
    await expect(message).toContainText('your edit is kept here')
    await expect(page.getByLabel('Save state')).toHaveText('Not saved')
    await expect(page.locator('.react-flow__node[data-id="node_1"]')).toBeVisible()
    // Room again: the retry saves it without another edit.
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          const r = indexedDB.deleteDatabase('filler')
          r.onsuccess = resolve
          r.onerror = resolve
        }),
    )
    await expect(page.getByLabel('Save state')).toHaveText('Saved', { timeout: 15_000 })
    await expect(message).toHaveText(/Saved counter after all\./)
    await page.reload()
    await expect(page.locator('.react-flow__node[data-id="node_1"]')).toBeVisible()
    expect(errors).toEqual([])
  } finally {
    await context.close()
    execFileSync('umount', [disk])
    rmSync(disk, { recursive: true, force: true })
  }
})
