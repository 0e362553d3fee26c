import { expect, test, type Page } from '@playwright/test'
import { importGraph, TWO_STEPS } from './graphFiles'

/**
 * A damaged checkpoint row (as a hand-edited or half-written database leaves it) never hides
 * the thread's good checkpoints: the timeline lists them with the damaged one marked, a run
 * from it says what is wrong and where, and "Repair thread" cuts it so the thread runs on.
 */

/** Rewrites one checkpoint row in the app's IndexedDB ('superstep') as the page sees it. */
async function damageCheckpoint(page: Page, checkpointId: string, change: Record<string, unknown>) {
  const threadId = await page.evaluate(
    ([id, patch]) =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('superstep')
        open.onerror = () => reject(open.error)
        open.onsuccess = () => {
          const db = open.result
          const tx = db.transaction('checkpoints', 'readwrite')
          let found = ''
          tx.objectStore('checkpoints').openCursor().onsuccess = (e) => {
            const cursor = (e.target as IDBRequest<IDBCursorWithValue | null>).result
            if (!cursor) return
            const row = cursor.value as { threadId: string; checkpointId: string }
            if (row.checkpointId === id) {
              found = row.threadId
              cursor.update({ ...row, ...patch })
            }
            cursor.continue()
          }
          tx.oncomplete = () => (db.close(), resolve(found))
          tx.onerror = () => reject(tx.error)
        }
      }),
    [checkpointId, change] as const,
  )
  expect(threadId).not.toBe('')
  return threadId
}

test('a damaged checkpoint is shown as damaged, refuses to run, and is cut by Repair thread', async ({
  page,
}) => {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto('/')
  await importGraph(page, TWO_STEPS)
  const runButton = page.getByRole('button', { name: /^(Run|Continue)$/ })
  const status = page.getByLabel('Run status')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status).toHaveAttribute('data-phase', 'paused') // the breakpoint before `write`
  const rows = page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
  await expect(rows).toHaveCount(3)
  // The newest checkpoint: `draft` ran (step 1).
  const damagedId = (await rows.first().getAttribute('data-checkpoint')) ?? ''
  await expect(rows.first()).toHaveAttribute('data-step', '1')

  const threadId = await damageCheckpoint(page, damagedId, { metadata: null })
  await page.reload()

  // Every checkpoint is still listed; the damaged one says why; a notice names thread and checkpoint.
  await expect(rows).toHaveCount(3)
  const damagedRow = page.locator(`.checkpoints li[data-checkpoint="${damagedId}"]`)
  await expect(damagedRow).toHaveAttribute('data-damaged', 'checkpoints')
  await expect(damagedRow).toContainText('damaged: metadata is null (expected an object)')
  const notice = page.getByRole('alert', { name: 'Damaged thread' })
  await expect(notice).toContainText(
    `1 damaged checkpoint in thread main (first: ${damagedId}, metadata is null (expected an object))`,
  )

  // Running from it is refused with what is wrong, where, and what to do.
  await runButton.click()
  const runError = page.getByRole('alert', { name: 'Run error' })
  await expect(runError).toContainText('DamagedCheckpointError')
  await expect(runError).toContainText(`checkpoint ${damagedId} on thread ${threadId} is damaged`)
  await expect(runError).toContainText('Repair thread')

  await notice.getByRole('button', { name: 'Repair thread' }).click()
  await expect(page.getByRole('status', { name: 'Message' })).toContainText(
    `Repaired thread main: removed 1 checkpoint (${damagedId.slice(0, 8)}); 2 checkpoints kept.`,
  )
  await expect(notice).toHaveCount(0)
  await expect(rows).toHaveCount(2)
  await expect(page.locator('.checkpoints li[data-damaged]')).toHaveCount(0)

  // The thread runs on from what is left: `draft` again, the breakpoint, then `write`.
  await runButton.click()
  await expect(status).toHaveAttribute('data-phase', 'paused')
  await expect(rows).toHaveCount(3)
  await page.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(status).toHaveAttribute('data-phase', 'done')
  await expect(rows).toHaveCount(4)
  await expect(rows.first()).toHaveAttribute('data-step', '2')

  // And a reload finds it whole.
  await page.reload()
  await expect(rows).toHaveCount(4)
  await expect(notice).toHaveCount(0)
  expect(errors).toEqual([])
})
