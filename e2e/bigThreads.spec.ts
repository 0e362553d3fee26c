import { readFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { makeThreadFile } from '../bench/threadFiles'

/** Picks a thread file in the run drawer's Import thread, as a user does. */
async function pickThreadFile(page: Page, name: string, text: string) {
  await page.getByLabel('Import a thread file').setInputFiles({
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(text),
  })
}

/** Rows of the app's database: every checkpoint, and the threads still marked importing. */
function storedRows(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ checkpoints: number; importing: number }>((resolve, reject) => {
        const open = indexedDB.open('superstep')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          const tx = db.transaction(['checkpoints', 'threads'], 'readonly')
          const count = tx.objectStore('checkpoints').count()
          const threads = tx.objectStore('threads').getAll()
          tx.oncomplete = () => {
            const rows = threads.result as { importing?: string }[]
            resolve({
              checkpoints: count.result,
              importing: rows.filter((r) => r.importing !== undefined).length,
            })
            db.close()
          }
        }
      }),
  )
}

test.beforeEach(async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeVisible()
})

test('a big thread file is imported and exported with progress, and imports back the same', async ({
  page,
}) => {
  const original = await makeThreadFile(1500)
  await pickThreadFile(page, 'big.thread.json', JSON.stringify(original, null, 2))
  const transfer = page.getByRole('status', { name: 'Thread transfer' })
  await expect(transfer).toContainText(/Importing thread… [\d,]+ \/ 1,502/)
  await expect(page.getByRole('status', { name: 'Message' })).toContainText(
    'Imported thread run of 1500 of cycle-1500.',
  )
  await expect(transfer).toBeHidden()
  const thread = page.getByRole('combobox', { name: 'Thread' })
  await expect(thread.locator('option:checked')).toHaveText('run of 1500 (1502)')

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export thread' }).click()
  await expect(transfer).toContainText(/Exporting thread…/)
  const text = (await readFile(await (await download).path())).toString()
  await expect(transfer).toBeHidden()
  const exported = JSON.parse(text) as typeof original
  expect(exported.graph).toEqual(original.graph)
  expect(exported.name).toBe('run of 1500')
  expect(exported.checkpoints.map((c) => c.checkpoint)).toEqual(
    original.checkpoints.map((c) => c.checkpoint),
  )

  // The export imports back: a second graph with the same thread.
  await pickThreadFile(page, 'again.thread.json', text)
  await expect(page.getByRole('status', { name: 'Message' })).toContainText(
    'Imported thread run of 1500 of cycle-1500 2.',
  )
  await expect(thread.locator('option:checked')).toHaveText('run of 1500 (1502)')
  expect(await storedRows(page)).toEqual({ checkpoints: 2 * 1502, importing: 0 })
})

test('a cancelled import keeps nothing: no checkpoints, no graph', async ({ page }) => {
  const file = await makeThreadFile(4000)
  await pickThreadFile(page, 'huge.thread.json', JSON.stringify(file))
  const transfer = page.getByRole('status', { name: 'Thread transfer' })
  await expect(transfer).toContainText(/Importing thread… [1-9][\d,]* \/ 4,002/)
  await transfer.getByRole('button', { name: 'Cancel import' }).click()
  await expect(page.getByRole('status', { name: 'Message' })).toContainText(
    /huge\.thread\.json: The import of thread .+ was cancelled: nothing of it was kept\./,
  )
  await expect(transfer).toBeHidden()
  await expect(page.getByRole('heading', { level: 1, name: 'cycle-4000' })).toHaveCount(0)
  expect(await storedRows(page)).toEqual({ checkpoints: 0, importing: 0 })
})

test('a file that is no thread file is refused, read in the worker', async ({ page }) => {
  await pickThreadFile(page, 'broken.thread.json', '{"superstepThread": 1, "checkpoints": [')
  await expect(page.getByRole('status', { name: 'Message' })).toContainText(
    'broken.thread.json: Not a Superstep thread file: it is not JSON',
  )
  await expect(page.getByRole('status', { name: 'Thread transfer' })).toBeHidden()
})
