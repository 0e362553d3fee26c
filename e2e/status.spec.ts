import { expect, test, type Page } from '@playwright/test'
import { importGraph, TWO_STEPS } from './graphFiles'

/** Never silent: every stop says why, every failed action says what, warnings reach the page. */

const status = (page: Page) => page.getByLabel('Run status')
const tab = (page: Page, name: string) =>
  page.getByRole('tab', { name: new RegExp(`^${name}`) }).click()

test.beforeEach(async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
})

test('a breakpoint stop says where; Step on a finished thread says it starts again; an older checkpoint is named', async ({
  page,
}) => {
  await importGraph(page, TWO_STEPS)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveText('Paused before write (breakpoint)')
  await tab(page, 'Interrupt')
  await expect(page.getByRole('tabpanel')).toContainText('paused at a breakpoint')
  await page.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await expect(status(page)).toHaveText('Done')

  // An older checkpoint selected: the status says which one is shown, not "interrupted".
  const rows = page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
  await rows.last().click()
  await expect(status(page)).toHaveText('Done · showing step -1 (older)')
  await expect(status(page)).toHaveAttribute('data-phase', 'done')

  // Step on the finished thread: a new run from the input, and it says so.
  const before = await rows.count()
  await page.keyboard.press('F10')
  await expect(
    page.getByText('The thread had finished, so Step starts a new run from the input.'),
  ).toBeVisible()
  // A fresh run's first Step writes the input checkpoint and runs START: two checkpoints.
  await expect(rows).toHaveCount(before + 2)
})

test('a write to a key that is not a field warns in Writes and in Problems, and still does after a reload', async ({
  page,
}) => {
  await importGraph(page, {
    superstep: 1,
    name: 'typo',
    state: [{ name: 'count', reducer: 'add', default: 0 }],
    nodes: [{ id: 'inc', code: '() => ({ count: 1, cuont: 1 })' }],
    edges: [{ from: '__start__', to: 'inc' }],
  } as { name: string })
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  const writesTab = page.getByRole('tab', { name: /^Writes/ })
  await expect(writesTab.locator('.badge')).toHaveText('1')
  await writesTab.click()
  // The newest checkpoint is step 1, where inc ran and wrote `cuont`.
  const warnings = page.getByRole('region', { name: 'Runtime warnings' })
  await expect(warnings).toContainText('inc')
  await expect(warnings).toContainText('cuont')
  await expect(warnings).toContainText('UNKNOWN_UPDATE_KEY')
  // Problems lists it too, with its step and node.
  const problems = page.getByRole('list', { name: 'Runtime warnings of this thread' })
  await expect(problems.getByRole('listitem')).toHaveCount(1)
  await expect(problems).toContainText('step 1 · inc')
  await expect(page.locator('#problems-heading .badge')).toHaveText('1')
  // Kept with the thread's checkpoints: a reload shows it in both places.
  await page.reload()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await expect(problems.getByRole('listitem')).toHaveCount(1)
  await expect(page.getByRole('tab', { name: /^Writes/ }).locator('.badge')).toHaveText('1')
  // A click on it shows the Writes of its step, with its node selected.
  await page.getByRole('tab', { name: /^Channels/ }).click()
  await problems.getByRole('button').click()
  await expect(page.getByRole('tab', { name: /^Writes/ })).toHaveAttribute('aria-selected', 'true')
  await expect(warnings).toContainText('cuont')
  await expect(page.getByRole('list', { name: 'Edges of inc' })).toBeVisible()
})

test('an interrupt reply that is not JSON is flagged beside the multi-line box', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'New graph from template human approval gate' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'human approval gate' })).toBeAttached()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveText('Waiting for a reply to interrupt() in review')
  const reply = page.getByRole('textbox', { name: 'Reply' })
  await reply.fill('')
  await reply.pressSequentially('looks good')
  await expect(reply).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText(/^Not JSON: .*A text reply needs quotes: "looks good"/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Resume' })).toBeDisabled()
  // Enter makes a new line in the box (it is a textarea), and valid JSON clears the flag.
  await reply.fill('{')
  await reply.press('Enter')
  await reply.pressSequentially('"ok": true}')
  await expect(reply).toHaveValue('{\n"ok": true}')
  await expect(reply).toHaveAttribute('aria-invalid', 'false')
  await page.getByRole('button', { name: 'Resume' }).click()
  await expect(status(page)).not.toHaveAttribute('data-phase', 'running')
})

test('a fork after a parallel step offers the nodes that ran instead of failing', async ({
  page,
}) => {
  await importGraph(page, {
    superstep: 1,
    name: 'parallel',
    state: [{ name: 'log', reducer: 'append', default: [] }],
    nodes: [
      { id: 'a', code: "() => ({ log: ['a'] })" },
      { id: 'b', code: "() => ({ log: ['b'] })" },
      { id: 'c', code: "() => ({ log: ['c'] })" },
    ],
    edges: [
      { from: '__start__', to: 'a' },
      { from: '__start__', to: 'b' },
      { from: 'a', to: 'c' },
      { from: 'b', to: 'c' },
    ],
    interruptBefore: ['c'],
  } as { name: string })
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveText('Paused before c (breakpoint)')
  await tab(page, 'State')
  const fork = page.getByRole('form', { name: 'Fork' })
  await fork.getByRole('textbox', { name: 'State update' }).fill('{"log": ["edited"]}')
  const choices = page.getByRole('group', { name: 'Write the update as' })
  await expect(choices).toContainText('ran 2 nodes in parallel')
  await fork.getByRole('button', { name: 'Fork from here' }).click()
  await expect(page.getByLabel('Fork error')).toHaveCount(0)
  await choices.getByRole('button', { name: 'Fork as b' }).click()
  await expect(page.getByRole('status', { name: 'Message' })).toContainText('Forked from ')
  await expect(page.getByLabel('Fork error')).toHaveCount(0)
})

test('? lists the registered commands by group, with their keys', async ({ page }) => {
  await page.keyboard.press('?')
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(dialog).toBeVisible()
  const run = dialog.getByRole('table', { name: 'Run shortcuts' })
  await expect(run.locator('tr[data-command="step"]')).toContainText('F10')
  await expect(run.locator('tr[data-command="pause"]')).toContainText('only while a run advances')
  await expect(dialog.getByRole('table', { name: 'Canvas shortcuts' })).toContainText('(canvas)')
  // At 1280x800 it all shows at once: heading to Close, nothing cut at the right, and the
  // descriptions in one column from group to group (it opens in the top bar, which does not
  // wrap: the tables were each as wide as their longest line, past the dialog's edge).
  const box = (await dialog.boundingBox()) as { y: number; height: number }
  expect(box.y).toBeGreaterThanOrEqual(0)
  expect(box.y + box.height).toBeLessThanOrEqual(800)
  await expect(dialog.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeInViewport()
  expect(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth + 1)).toBe(true)
  const lefts = await dialog
    .locator('tr > td:first-of-type')
    .evaluateAll((cells) => [
      ...new Set(cells.map((c) => Math.round(c.getBoundingClientRect().left))),
    ])
  expect(lefts).toHaveLength(1)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})

test('Settings is a dialog of its own width: its text wraps, its key fields fill their columns', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Settings' }).click()
  const dialog = page.getByRole('dialog', { name: 'Settings' })
  await expect(dialog).toBeVisible()
  const box = (await dialog.boundingBox()) as { width: number }
  // It opens in the top bar, whose lines do not wrap: it was 1132 px wide at 1280x800.
  expect(box.width).toBeLessThanOrEqual(46 * 14 + 2)
  expect(await dialog.evaluate((d) => d.scrollWidth <= d.clientWidth + 1)).toBe(true)
  const url = (await dialog.getByRole('textbox', { name: 'Base URL 1' }).boundingBox()) as {
    width: number
  }
  expect(url.width).toBeGreaterThan(box.width / 3)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})

test('a library row holds one line: a long name ends in an ellipsis, the date fits', async ({
  page,
}) => {
  const name = 'a graph with a very long name that would wrap over several lines of the library'
  await importGraph(page, {
    superstep: 1,
    name,
    state: [{ name: 'x' }],
    nodes: [{ id: 'a', code: '() => ({ x: 1 })' }],
    edges: [{ from: '__start__', to: 'a' }],
  } as { name: string })
  const row = page
    .getByRole('navigation', { name: 'Graphs and problems' })
    .locator('li[aria-current="page"]')
  const button = row.getByRole('button', { name })
  await expect(button).toHaveAttribute('title', name)
  const height = (await row.boundingBox())?.height ?? 0
  expect(height).toBeLessThan(36)
  const time = row.locator('time')
  expect(await time.evaluate((t) => t.scrollWidth <= t.clientWidth + 1)).toBe(true)
})

test("a graph that no longer compiles still shows its thread's history, read only", async ({
  page,
}) => {
  await importGraph(page, {
    superstep: 1,
    name: 'breaks later',
    state: [{ name: 'x' }],
    nodes: [{ id: 'a', code: '() => ({ x: 1 })' }],
    edges: [
      { from: '__start__', to: 'a' },
      { from: 'a', to: '__end__' },
    ],
  } as { name: string })
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  const rows = page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
  const count = 3 // the input, START and `a`
  await expect(rows).toHaveCount(count)
  // A node nothing reaches: LangGraph.js refuses the graph, so it does not compile.
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  await expect(page.getByRole('button', { name: /^Problems: [1-9]/ })).toBeVisible()
  await page.reload()
  await expect(page.getByRole('button', { name: /^Problems: [1-9]/ })).toBeVisible()
  // Its thread's checkpoints are listed and read as they were run, and it says why nothing runs.
  await expect(rows).toHaveCount(count)
  await expect(page.getByRole('note', { name: 'Read only' })).toContainText(
    'the graph has problems',
  )
  await rows.filter({ hasText: 'step 1' }).click()
  await tab(page, 'Channels')
  await expect(
    page.getByRole('table', { name: 'Channels' }).locator('tr[data-channel="x"] td.value'),
  ).toHaveText('1')
  await tab(page, 'State')
  await expect(page.getByRole('button', { name: 'Fork from here' })).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Replay from here' })).toBeDisabled()
  // Run says what stops it, and the history stays as it is.
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run error')).toContainText('cannot run')
  await expect(rows).toHaveCount(count)
})
