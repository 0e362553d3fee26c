import { expect, test, type Page } from '@playwright/test'

/** Collects console errors and uncaught exceptions from the moment the page opens. */
function collectErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`)
  })
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`))
  return errors
}

test('the first page shows the example graph without errors', async ({ page }) => {
  const errors = collectErrors(page)
  await page.goto('/')

  await expect(page).toHaveTitle('Superstep')
  await expect(page.getByRole('banner')).toContainText('Superstep')
  await expect(page.getByRole('heading', { level: 1, name: 'counter' })).toBeVisible()

  const canvas = page.getByRole('main', { name: 'Canvas' })
  await expect(canvas.locator('[data-node-id="inc"]')).toBeVisible()
  const fields = page.getByRole('table', { name: 'State fields' })
  const names = fields.getByRole('textbox', { name: 'Field name', exact: true })
  await expect(names).toHaveCount(2)
  await expect(names.nth(0)).toHaveValue('count')
  await expect(names.nth(1)).toHaveValue('log')
  await expect(page.getByRole('navigation')).toContainText('No problems.')

  for (const name of ['Undo', 'Redo', 'Add node', 'Auto layout', 'Import', 'Export', 'Run']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeVisible()
  }
  await expect(page.getByRole('region', { name: 'Run' })).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Channels' })).toHaveAttribute('aria-selected', 'true')

  expect(errors).toEqual([])
})

test('the run drawer tabs follow the arrow keys', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('tab', { name: 'Channels' }).focus()
  await page.keyboard.press('ArrowLeft')
  await expect(page.getByRole('tab', { name: 'Chat' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('tabpanel')).toContainText('graphs with a messages field')
  await page.keyboard.press('ArrowLeft')
  const stream = page.getByRole('tab', { name: 'Stream' })
  await expect(stream).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('tabpanel')).toContainText('Run the graph (F5)')
  await page.keyboard.press('ArrowLeft')
  const interrupt = page.getByRole('tab', { name: 'Interrupt' })
  await expect(interrupt).toHaveAttribute('aria-selected', 'true')
  await expect(interrupt).toBeFocused()
  await expect(page.getByRole('tabpanel')).toContainText('No interrupt() is waiting')
  await page.keyboard.press('ArrowLeft')
  const logs = page.getByRole('tab', { name: 'Logs' })
  await expect(logs).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('tabpanel')).toContainText('Nothing logged')
})

test('the page follows a dark colour scheme', async ({ page }) => {
  const background = () =>
    page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
  await page.emulateMedia({ colorScheme: 'light' })
  await page.goto('/')
  const light = await background()
  await page.emulateMedia({ colorScheme: 'dark' })
  expect(await background()).not.toBe(light)
})

test('a node added (the toolbar, a double click on the pane) is selected, shown in the inspector to be named', async ({
  page,
}) => {
  await page.goto('/')
  const canvas = page.getByRole('main', { name: 'Canvas' })
  await canvas.locator('[data-node-id="inc"]').click()
  const id = page.getByRole('textbox', { name: 'Node id' })
  await expect(id).toHaveValue('inc')
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  await expect(canvas.locator('[data-node-id="node_1"]')).toBeVisible()
  await expect(id).toHaveValue('node_1')
  await expect(canvas.locator('.react-flow__node.selected')).toHaveAttribute('data-id', 'node_1')
  const pane = await canvas.locator('.react-flow__pane').boundingBox()
  if (!pane) throw new Error('no pane')
  await page.mouse.dblclick(pane.x + pane.width * 0.75, pane.y + pane.height * 0.8)
  await expect(canvas.locator('[data-node-id="node_2"]')).toBeVisible()
  await expect(id).toHaveValue('node_2')
})
