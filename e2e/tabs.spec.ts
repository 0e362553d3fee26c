import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import { importGraph, nodeCodeLines, TWO_STEPS } from './graphFiles'
import { storedGraphs } from './storedRows'

/**
 * Two tabs of one browser on one library: their edits are merged or the user chooses, a thread
 * is run by one tab at a time, a deleted graph goes to a bin and stays deleted, and an edit
 * being saved as the page reloads comes back.
 */

async function open(page: Page) {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
}

/** Two tabs of one browser, each with the app started. */
async function twoTabs(context: BrowserContext): Promise<[Page, Page]> {
  const a = await context.newPage()
  const b = await context.newPage()
  await open(a)
  await open(b)
  return [a, b]
}

async function typeAtEnd(page: Page, nodeId: string, text: string) {
  const lines = await nodeCodeLines(page, nodeId)
  await lines.click()
  await page.keyboard.press('ControlOrMeta+End')
  await page.keyboard.type(text)
}

test("edits in two tabs at once: both are kept, and each tab shows the other's", async ({
  context,
}) => {
  const [a, b] = await twoTabs(context)
  // A renames the graph while B adds a node: different things, both kept.
  await a.getByRole('button', { name: 'Rename', exact: true }).click()
  await a.getByLabel('Graph name').fill('counter renamed')
  await Promise.all([
    a.getByLabel('Graph name').press('Enter'),
    b.getByRole('button', { name: 'Add node', exact: true }).click(),
  ])
  for (const p of [a, b]) {
    await expect(p.getByLabel('Save state')).toHaveText('Saved')
    await expect(p.locator('.react-flow__node[data-id="node_1"]')).toBeVisible()
    await expect(p.getByRole('heading', { level: 1, name: 'counter renamed' })).toBeAttached()
  }
  const [row] = (await storedGraphs(a)).filter((g) => g.name === 'counter renamed')
  expect(row?.doc.nodes.map((n) => n.id)).toEqual(['inc', 'node_1'])
  expect(await a.getByRole('alert', { name: 'Conflict with another tab' }).count()).toBe(0)
})

test('the same code changed in two tabs: one tab says where and lets the user choose', async ({
  context,
}) => {
  const [a, b] = await twoTabs(context)
  // Both editors ready first; then both type before either commits (a 300 ms debounce).
  for (const p of [a, b]) {
    const lines = await nodeCodeLines(p, 'inc')
    await lines.click()
    await p.keyboard.press('ControlOrMeta+End')
  }
  await Promise.all([a.keyboard.type(' // from a'), b.keyboard.type(' // from b')])
  // Whichever tab saved second is told, with the place both changed.
  const banner = (p: Page) => p.getByRole('alert', { name: 'Conflict with another tab' })
  await expect
    .poll(async () => (await banner(a).count()) + (await banner(b).count()), { timeout: 15_000 })
    .toBe(1)
  const [loser, text] = (await banner(a).count()) ? [a, ' // from a'] : [b, ' // from b']
  await expect(banner(loser)).toContainText('nodes › inc › code')
  await expect(loser.getByLabel('Save state')).toHaveText('Not saved')
  await banner(loser).getByRole('button', { name: 'Keep mine' }).click()
  await expect(loser.getByLabel('Save state')).toHaveText('Saved')
  await expect(banner(loser)).toHaveCount(0)
  const [row] = await storedGraphs(loser)
  expect(row?.doc.nodes[0]?.code?.endsWith(text)).toBe(true)
  // The other tab follows what was chosen.
  const other = loser === a ? b : a
  await expect(other.locator('.monaco-editor .view-lines').first()).toContainText(text.trim())
})

test('one thread is run by one tab at a time; the other says it runs elsewhere', async ({
  context,
}) => {
  const a = await context.newPage()
  await open(a)
  await importGraph(a, TWO_STEPS)
  const b = await context.newPage()
  await open(b)
  await expect(b.getByRole('heading', { level: 1, name: 'two steps' })).toBeAttached()
  // A steps once: its run is paused, and holds the thread.
  await a.getByRole('button', { name: 'Step', exact: true }).click()
  await expect(a.getByLabel('Run status')).toContainText('Paused')
  await expect(b.getByText('Running in another tab')).toBeVisible()
  // Run, or Continue when B read the thread after A's step (B draws its canvas before its
  // runtime worker has started, so that read may come later): either way, not B's to press.
  await expect(b.getByRole('button', { name: /^(Run|Continue)$/ })).toBeDisabled()
  // A's run goes on to its breakpoint, where it ends: B may run again.
  await a.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(a.getByLabel('Run status')).toContainText('write')
  await expect(b.getByText('Running in another tab')).toHaveCount(0)
  // B sees where A's run stopped, and may go on from there.
  await expect(b.getByRole('button', { name: 'Continue', exact: true })).toBeEnabled()
  await expect(b.getByLabel('Run status')).toContainText('write')
})

test('deleting a graph asks, moves it to a bin that survives a reload, and the other tab cannot bring it back', async ({
  context,
}) => {
  const a = await context.newPage()
  const b = await context.newPage()
  await open(a)
  await importGraph(a, TWO_STEPS)
  await open(b)
  await expect(b.getByRole('heading', { level: 1, name: 'two steps' })).toBeAttached()
  await a.getByRole('button', { name: 'Delete graph' }).click()
  const ask = a.getByRole('dialog', { name: 'Delete graph' })
  await expect(ask).toContainText('Move two steps to the bin?')
  await ask.getByRole('button', { name: 'Cancel' }).click()
  await expect(a.getByRole('heading', { level: 1, name: 'two steps' })).toBeAttached()
  await a.getByRole('button', { name: 'Delete graph' }).click()
  await a
    .getByRole('dialog', { name: 'Delete graph' })
    .getByRole('button', { name: 'Move to bin' })
    .click()
  await expect(a.getByRole('button', { name: 'Bin (1)' })).toBeVisible()
  // B had it open: it is told, and its edits are not saved over the deletion.
  const banner = b.getByRole('alert', { name: 'Conflict with another tab' })
  await expect(banner).toContainText('was moved to the bin in another tab')
  await b.getByRole('button', { name: 'Add node', exact: true }).click()
  await b.waitForTimeout(500)
  const binned = (await storedGraphs(b)).find((g) => g.name === 'two steps')
  expect(binned?.deletedAt).toBeTruthy()
  expect(binned?.doc.nodes).toHaveLength(2)
  await banner.getByRole('button', { name: 'Close it' }).click()
  await expect(b.getByRole('heading', { level: 1, name: 'two steps' })).toHaveCount(0)
  // The bin survives a reload; restoring opens the graph again.
  await a.reload()
  await a.getByRole('button', { name: 'Bin (1)' }).click()
  const bin = a.getByRole('dialog', { name: 'Bin' })
  await bin.getByRole('button', { name: 'Restore' }).click()
  await expect(a.getByRole('heading', { level: 1, name: 'two steps' })).toBeAttached()
  // Deleting for good asks twice, and takes the threads with it.
  await a.getByRole('button', { name: 'Delete graph' }).click()
  await a
    .getByRole('dialog', { name: 'Delete graph' })
    .getByRole('button', { name: 'Move to bin' })
    .click()
  await a.getByRole('button', { name: 'Bin (1)' }).click()
  await bin.getByRole('button', { name: 'Delete two steps for good' }).click()
  await bin.getByRole('button', { name: 'Really delete two steps' }).click()
  await expect(bin).toContainText('The bin is empty.')
  expect((await storedGraphs(a)).some((g) => g.name === 'two steps')).toBe(false)
})

test('an edit still being saved when the page reloads comes back after it', async ({ page }) => {
  await open(page)
  await typeAtEnd(page, 'inc', ' // just typed')
  // Reload while the text waits for its commit and its save.
  await page.reload()
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await expect(page.getByRole('status', { name: 'Message' })).toContainText(
    'Recovered the last changes to counter',
  )
  await expect(page.getByLabel('Save state')).toHaveText('Saved')
  const [row] = await storedGraphs(page)
  expect(row?.doc.nodes[0]?.code?.endsWith(' // just typed')).toBe(true)
})

test('a thread deleted in one tab: the other tab, which had it open, leaves it and says so', async ({
  context,
}) => {
  const a = await context.newPage()
  const b = await context.newPage()
  await open(a)
  await a.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(a.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
  await a.getByRole('button', { name: 'New thread' }).click()
  await a.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(a.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
  await open(b)
  const picker = (p: Page) => p.getByRole('combobox', { name: 'Thread' })
  await expect(picker(b).locator('option')).toHaveCount(2)
  await picker(b).selectOption({ index: 1 })
  await expect(b.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')).toHaveCount(5)
  // A deletes the thread B shows.
  await picker(a).selectOption({ index: 1 })
  await a.getByRole('button', { name: 'Delete thread' }).click()
  await expect(picker(a).locator('option')).toHaveCount(1)
  await expect(b.getByRole('status', { name: 'Message' })).toContainText(
    'The thread open here was deleted in another tab.',
  )
  await expect(picker(b).locator('option')).toHaveText([/^main/])
})
