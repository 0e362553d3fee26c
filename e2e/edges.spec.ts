import { expect, test, type Page } from '@playwright/test'

/** Edges and joins made from the inspector with the keyboard; paste selects the copy. */

async function importGraph(page: Page, doc: { name: string }): Promise<void> {
  await page.getByLabel('Import a graph file').setInputFiles({
    name: `${doc.name}.json`,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  })
  await expect(page.getByRole('heading', { level: 1, name: doc.name })).toBeVisible()
}

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`)

test.beforeEach(async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await importGraph(page, {
    superstep: 1,
    name: 'loose',
    state: [{ name: 'log', reducer: 'append', default: [] }],
    nodes: [
      { id: 'a', code: "() => ({ log: ['a'] })", position: { x: 0, y: 0 } },
      { id: 'b', code: "() => ({ log: ['b'] })", position: { x: 0, y: 120 } },
      { id: 'c', code: "() => ({ log: ['c'] })", position: { x: 250, y: 60 } },
    ],
    edges: [
      { from: '__start__', to: 'a' },
      { from: '__start__', to: 'b' },
      { from: '__start__', to: 'c' },
    ],
  } as { name: string })
})

test('a fixed edge and a join are made from the node inspector with the keyboard', async ({
  page,
}) => {
  await node(page, 'a').click()
  const edges = page.getByRole('group', { name: 'Edges' })
  await expect(edges.getByRole('list', { name: 'Edges of a' })).toContainText('START → a')
  // Keyboard only: focus the select, choose b with the arrow keys.
  const addTo = edges.getByLabel('Add edge to')
  await addTo.focus()
  await addTo.selectOption('b')
  await expect(edges.getByRole('list', { name: 'Edges of a' })).toContainText('a → b')
  await expect(page.locator('.react-flow__edge')).toHaveCount(4)

  await node(page, 'c').click()
  const cEdges = page.getByRole('group', { name: 'Edges' })
  await cEdges.getByText('Add a join: wait for all of several nodes').click()
  const sources = cEdges.getByRole('group', { name: 'Sources of a join into c' })
  await sources.getByRole('checkbox', { name: 'a' }).check()
  await sources.getByRole('checkbox', { name: 'b' }).check()
  await cEdges.getByRole('button', { name: 'Add join into c' }).click()
  await expect(cEdges.getByRole('list', { name: 'Edges of c' })).toContainText(
    'c waits for all of a, b',
  )
  // Undo takes the join away again (it is one edit).
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } })
  await page.keyboard.press('Control+z')
  await node(page, 'c').click()
  await expect(page.getByRole('list', { name: 'Edges of c' })).not.toContainText('waits for all')
})

test('paste selects the copy, not the original', async ({ page }) => {
  await node(page, 'b').click()
  await expect(node(page, 'b')).toHaveClass(/selected/)
  await page.keyboard.press('Control+c')
  await page.keyboard.press('Control+v')
  await expect(page.locator('.react-flow__node')).toHaveCount(6) // START, END, a, b, c, the copy
  await expect(node(page, 'b')).not.toHaveClass(/selected/)
  const selected = page.locator('.react-flow__node.selected')
  await expect(selected).toHaveCount(1)
  expect(await selected.getAttribute('data-id')).not.toBe('b')
})
