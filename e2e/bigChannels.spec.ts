import { expect, test } from '@playwright/test'
import { chainGraph } from '../bench/graphs'
import { importGraph } from './graphFiles'
import { storedRows } from './storedRows'

// Issue 18, "Big graphs": the Channels table renders the rows on screen, not every channel.
test('a 1,000-node chain shows its channels a screenful at a time, down to the last', async ({
  page,
}) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  const doc = chainGraph(1000)
  await page.getByLabel('Import a graph file').setInputFiles({
    name: 'chain.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  })
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  const step = page.getByRole('button', { name: 'Step', exact: true })
  const status = page.getByLabel('Run status')
  for (let i = 0; i < 4; i++) {
    await step.click()
    await expect(status).toHaveAttribute('data-phase', 'paused')
  }
  await expect(page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')).toHaveCount(
    5,
  )
  await page.getByRole('tab', { name: 'Channels', exact: true }).click()
  const table = page.getByRole('table', { name: 'Channels' })
  // Step 3: n0, n1 and n2 have run (n counts them), n3 is queued.
  await expect(table.locator('tr[data-channel="n"] td.value')).toHaveText('3')
  await expect(table.locator('tr[data-channel="branch:to:n3"]')).toHaveClass('changed')
  const total = Number(await table.getAttribute('aria-rowcount')) - 1
  expect(total).toBeGreaterThan(1000)
  const rendered = await table.locator('tr[data-channel]').count()
  expect(rendered).toBeGreaterThan(5)
  expect(rendered).toBeLessThan(total / 5)

  // Scrolled to the end: the last channel is there with its value, the first ones are gone.
  const panel = page.locator('#run-tabpanel')
  const last = table.locator('tr[data-channel="branch:to:n999"]')
  await expect(async () => {
    await panel.evaluate((el) => el.scrollTo(0, el.scrollHeight))
    await expect(last).toBeInViewport({ timeout: 500 })
  }).toPass()
  await expect(last.locator('td.value')).toHaveText('empty')
  await expect(
    page.getByRole('cell', { name: 'Version of branch:to:n999', exact: true }),
  ).toHaveText('—')
  await expect(table.locator('tr[data-channel="n"]')).toHaveCount(0)
  expect(await table.locator('tr[data-channel]').count()).toBeLessThan(total / 5)
  // Back up: the first rows come back with their values.
  await panel.evaluate((el) => el.scrollTo(0, 0))
  await expect(table.locator('tr[data-channel="n"] td.value')).toHaveText('3')
})

// Issue 18, "Big graphs": a step of a big graph stores what it touched. Past 32 rows from a
// whole row its checkpoints stay deltas while they carry less than that row
// (src/persistence/rowStates.ts): in the browser's own IndexedDB, and read back by a fresh
// page, whose worker has none of them cached.
test('a 300-node chain keeps deltas past 32 rows deep, and a new page reads them back', async ({
  page,
}) => {
  test.setTimeout(120_000)
  await page.goto('/')
  await importGraph(page, chainGraph(300))
  await page.getByLabel('Recursion limit').fill('400')
  await page.getByLabel('Recursion limit').press('Tab')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done', {
    timeout: 60_000,
  })
  const rows = await storedRows<{ metadata?: { step?: number }; delta?: { depth: number } }>(
    page,
    'checkpoints',
  )
  const depths = new Map(rows.map((r) => [r.metadata?.step ?? NaN, r.delta?.depth ?? 0]))
  expect(depths.size).toBe(302) // the input, steps 0 to 300
  // The last steps are deltas far past 32 rows from their whole row.
  const deep = [300, 296].map((s) => depths.get(s) ?? 0)
  for (const d of deep) expect(d).toBeGreaterThan(32)

  await page.reload()
  await expect(page.getByRole('button', { name: /^(Run|Continue)$/ })).toBeEnabled()
  await page.getByRole('tab', { name: 'Channels', exact: true }).click()
  const table = page.getByRole('table', { name: 'Channels' })
  for (const s of [296, 300]) {
    await page.getByRole('listbox', { name: 'Checkpoints' }).locator(`[data-step="${s}"]`).click()
    // Step s: n0 to n(s-1) have run (n counts them).
    await expect(table.locator('tr[data-channel="n"] td.value')).toHaveText(String(s))
  }
})
