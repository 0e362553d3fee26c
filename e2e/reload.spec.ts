import { expect, test } from '@playwright/test'

/** Nothing is lost on reload, not even where the user was. */

test('a reload opens the graph last open, with its checkpoint, selected node and drawer tab', async ({
  page,
}) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await page.getByRole('button', { name: 'New graph from template fan-out and join' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'fan-out and join' })).toBeAttached()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
  const rows = page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
  // The timeline is read once the run has reported its end.
  await expect(rows.nth(3)).toBeVisible()
  const count = await rows.count()
  // An older checkpoint, and a node on the canvas.
  await rows.nth(2).click()
  const step = await rows.nth(2).getAttribute('data-step')
  await expect(rows.nth(2)).toHaveAttribute('aria-selected', 'true')
  const node = page
    .locator('.react-flow__node')
    .filter({ hasText: /^ƒ?\s*\w+/ })
    .nth(1)
  const nodeName = (await node.getAttribute('data-id')) ?? ''
  await node.click()
  await expect(node).toHaveClass(/selected/)

  await page.getByRole('tab', { name: /^Writes/ }).click()
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'fan-out and join' })).toBeAttached()
  await expect(page.getByRole('tab', { name: /^Writes/ })).toHaveAttribute('aria-selected', 'true')
  await expect(rows).toHaveCount(count)
  await expect(rows.nth(2)).toHaveAttribute('aria-selected', 'true')
  await expect(rows.nth(2)).toHaveAttribute('data-step', step ?? '')
  await expect(page.locator(`.react-flow__node[data-id="${nodeName}"]`)).toHaveClass(/selected/)

  // Another graph opened last: the reload opens it, not the most recently changed one.
  await page.getByRole('button', { name: 'counter', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'counter' })).toBeAttached()
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'counter' })).toBeAttached()
})

test('each canvas opens where the user left it, also after a reload; Fit view fits it again', async ({
  page,
}) => {
  const viewport = page.locator('.react-flow__viewport')
  const transform = () => viewport.evaluate((v) => (v as HTMLElement).style.transform)
  await page.goto('/')
  await expect(page.locator('.react-flow__node[data-id="inc"]')).toBeVisible()
  const fitted = await transform()
  // Zoomed in and panned, with the wheel and a drag of the pane.
  const pane = page.locator('.react-flow__pane')
  const box = (await pane.boundingBox())!
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.7)
  await page.mouse.wheel(0, -400)
  await page.mouse.down()
  await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.6, { steps: 5 })
  await page.mouse.up()
  await expect.poll(transform).not.toBe(fitted)
  await page.waitForTimeout(300) // the wheel's zoom ends
  const moved = await transform()
  await page.reload()
  await expect(page.locator('.react-flow__node[data-id="inc"]')).toBeVisible()
  await expect.poll(transform).toBe(moved)

  // Another graph has its own view (fitted: never moved); back, this one is where it was.
  await page.getByRole('button', { name: 'New graph from template fan-out and join' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'fan-out and join' })).toBeAttached()
  await expect.poll(transform).not.toBe(moved)
  await page.getByRole('button', { name: 'counter', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'counter' })).toBeAttached()
  await expect.poll(transform).toBe(moved)

  // Fit view: fitted again, and so after a reload.
  await page.getByRole('button', { name: 'Fit view', exact: true }).click()
  await expect.poll(transform).toBe(fitted)
  await page.reload()
  await expect(page.locator('.react-flow__node[data-id="inc"]')).toBeVisible()
  await expect.poll(transform).toBe(fitted)
})
