import { expect, test } from '@playwright/test'

/** Storage that cannot be used says so once, clearly, and is left as it was. */

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
  await expect(alert).toContainText('at version 9; this version of Superstep reads up to version 3')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toHaveCount(0)
  const version = await page.evaluate(
    async () => (await indexedDB.databases()).find((d) => d.name === 'superstep')?.version,
  )
  expect(version).toBe(90)
})
