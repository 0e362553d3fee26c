import { expect, test } from '@playwright/test'
import { importGraph } from './graphFiles'

/** The Stream tab: LangGraph's stream() chunks of a run, live, by mode and node. */

const WRITER = {
  superstep: 1,
  name: 'writer',
  state: [{ name: 'n', reducer: 'add', default: 0 }],
  nodes: [
    {
      id: 'count',
      code: '(s, config) => { config.writer({ progress: s.n }); return { n: 1 } }',
      position: { x: 0, y: 0 },
    },
  ],
  edges: [{ from: '__start__', to: 'count' }],
  branches: [
    { from: 'count', router: "(s) => s.n < 3 ? 'count' : '__end__'", paths: ['count', '__end__'] },
  ],
}

test('the Stream tab lists every chunk of the run, filters by mode and node, and opens a step', async ({
  page,
}) => {
  await page.goto('/')
  await importGraph(page, WRITER)
  await page.getByRole('tab', { name: 'Stream' }).click()
  await expect(page.getByRole('tabpanel')).toContainText('Run the graph (F5)')
  await expect(page.getByRole('tabpanel')).not.toContainText('recorded while this tab is open')
  await page.keyboard.press('F5')
  await expect(page.getByLabel('Run status')).toHaveText('Done')
  const rows = page.getByRole('list', { name: 'Stream chunks' }).getByRole('listitem')
  // updates, custom and messages are shown at first: three updates and three custom chunks.
  await expect(rows.and(page.locator('[data-mode="custom"]'))).toHaveCount(3)
  await expect(rows.and(page.locator('[data-mode="updates"]'))).toHaveCount(3)
  await expect(rows.and(page.locator('[data-mode="custom"]')).first()).toContainText(
    '{"progress":0}',
  )
  // Only values: one after each step of `count` (the empty input writes no field).
  const filters = page.getByRole('group', { name: 'Stream filters' })
  await filters.getByLabel('updates').uncheck()
  await filters.getByLabel('custom').uncheck()
  await filters.getByLabel('values').check()
  await expect(rows).toHaveCount(3)
  await expect(rows.last()).toContainText('{"n":3}')
  // By node: the updates of `count`.
  await filters.getByLabel('values').uncheck()
  await filters.getByLabel('updates').check()
  await filters.getByLabel('tasks').check()
  await page.getByLabel('Stream node').selectOption('count')
  await expect(rows).toHaveCount(9) // 3 updates, 3 task starts, 3 task results
  // A chunk picked shows whole; its step opens that checkpoint.
  await rows.first().click()
  await expect(page.getByRole('region', { name: 'Stream chunk' })).toBeVisible()
  await rows
    .first()
    .getByRole('button', { name: /^step \d+$/ })
    .click()
  await expect(
    page.getByRole('listbox', { name: 'Checkpoints' }).locator('[aria-selected="true"]'),
  ).toContainText(/step \d+/)
})

test('a run made while the Stream tab was closed: the tab says why it lists nothing', async ({
  page,
}) => {
  await page.goto('/')
  await importGraph(page, WRITER)
  await page.keyboard.press('F5')
  await expect(page.getByLabel('Run status')).toHaveText('Done')
  await page.getByRole('tab', { name: 'Stream' }).click()
  await expect(page.getByRole('tabpanel')).toContainText(
    'The stream is recorded while this tab is open: this thread’s runs so far came before it.',
  )
  await page.keyboard.press('F5')
  await expect(page.getByLabel('Run status')).toHaveText('Done')
  await expect(
    page.getByRole('list', { name: 'Stream chunks' }).getByRole('listitem'),
  ).not.toHaveCount(0)
})
