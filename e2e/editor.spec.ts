import { readFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { nodeCodeLines } from './graphFiles'

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`)
const problems = (page: Page) => page.getByRole('navigation', { name: 'Graphs and problems' })

async function connect(page: Page, from: string, to: string) {
  const source = node(page, from).locator('.react-flow__handle.source')
  const target = node(page, to).locator('.react-flow__handle.target')
  await source.dragTo(target)
}

async function exportFile(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Export', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Export' })
  const download = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Download graph file' }).click()
  const text = await readFile(await (await download).path(), 'utf8')
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toBeHidden()
  return text
}

test.beforeEach(async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await page.getByLabel('New graph', { exact: true }).selectOption('empty')
  await expect(page.locator('.react-flow__node')).toHaveCount(2) // START and END
})

test('draw a graph with a conditional edge and a join, set a reducer, reload, undo and redo', async ({
  page,
}) => {
  const add = page.getByRole('button', { name: 'Add node', exact: true })
  for (let i = 0; i < 3; i++) await add.click()
  await expect(page.locator('.react-flow__node')).toHaveCount(5)
  await connect(page, '__start__', 'node_1')
  await connect(page, '__start__', 'node_2')
  // A join: select the two sources, then "Join" into the third node.
  await node(page, 'node_1').click()
  await node(page, 'node_2').click({ modifiers: ['Shift'] })
  await page.getByRole('button', { name: 'Join', exact: true }).click()
  await page.getByLabel('Join into').selectOption('node_3')
  // A conditional edge from the third node, with the keyboard from the inspector.
  // (the join marker sits in front of node_3's edge, so select it through its label)
  await node(page, 'node_3').getByText('node_3', { exact: true }).click()
  await page.getByRole('button', { name: 'Add conditional edge' }).click()
  await expect(page.getByLabel(/Path done: node_3 → END/)).toHaveCount(1)
  // A field with a reducer, from the schema panel (nothing selected).
  await node(page, 'node_3').getByText('node_3', { exact: true }).click()
  await page.keyboard.press('Escape') // nothing selected: the inspector shows the schema
  await page.getByRole('button', { name: 'Add field' }).click()
  await page
    .getByRole('combobox', { name: /^Reducer of / })
    .last()
    .selectOption('append')
  await expect(problems(page)).toContainText('No problems.')
  await expect(page.getByLabel('Save state')).toHaveText('Saved')
  const drawn = JSON.parse(await exportFile(page))
  expect(drawn.nodes.map((n: { id: string }) => n.id)).toEqual(['node_1', 'node_2', 'node_3'])
  expect(drawn.edges).toEqual(
    expect.arrayContaining([
      { from: '__start__', to: 'node_1' },
      { from: '__start__', to: 'node_2' },
      { from: ['node_1', 'node_2'], to: 'node_3' },
    ]),
  )
  expect(drawn.branches).toHaveLength(1)
  expect(drawn.state[0].reducer).toBe('append')

  await page.reload()
  await expect(page.locator('.react-flow__node')).toHaveCount(6) // START, END, three nodes and the join's marker
  expect(JSON.parse(await exportFile(page))).toEqual(drawn)

  // Undo back to the empty graph, then redo everything.
  const undo = page.getByRole('button', { name: 'Undo', exact: true })
  const redo = page.getByRole('button', { name: 'Redo', exact: true })
  await expect(undo).toBeDisabled() // a reload starts a fresh history
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  await expect(page.locator('.react-flow__node')).toHaveCount(7)
  await page.keyboard.press('Control+z')
  await expect(page.locator('.react-flow__node')).toHaveCount(6)
  await page.keyboard.press('Control+Shift+z')
  await expect(page.locator('.react-flow__node')).toHaveCount(7)
  await undo.click()
  await expect(redo).toBeEnabled()
  await expect(page.locator('.react-flow__node')).toHaveCount(6)
})

test('undo walks a drawing back to empty and redo replays it', async ({ page }) => {
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  await node(page, 'node_1').getByText('node_1', { exact: true }).click()
  await page.keyboard.press('n') // the keyboard way to add a node
  await expect(node(page, 'node_2')).toBeVisible()
  await connect(page, '__start__', 'node_1')
  await connect(page, 'node_1', 'node_2')
  const undo = page.getByRole('button', { name: 'Undo', exact: true })
  for (let i = 0; i < 20 && (await undo.isEnabled()); i++) await undo.click()
  await expect(undo).toBeDisabled()
  await expect(page.locator('.react-flow__node')).toHaveCount(2)
  const redo = page.getByRole('button', { name: 'Redo', exact: true })
  for (let i = 0; i < 20 && (await redo.isEnabled()); i++) await redo.click()
  await expect(redo).toBeDisabled()
  await expect(page.locator('.react-flow__node')).toHaveCount(4)
  await expect(page.locator('.react-flow__edge')).toHaveCount(2)
})

test('export, delete, import: the same file comes back; a broken file changes nothing', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  await connect(page, '__start__', 'node_1')
  const exported = await exportFile(page)
  await page.getByRole('button', { name: 'Delete graph' }).click()
  await page
    .getByRole('dialog', { name: 'Delete graph' })
    .getByRole('button', { name: 'Move to bin' })
    .click()
  await expect(page.getByRole('button', { name: /Undo delete of/ })).toBeVisible()
  await page.getByLabel('Import a graph file').setInputFiles({
    name: 'untitled.superstep.json',
    mimeType: 'application/json',
    buffer: Buffer.from(exported),
  })
  await expect(page.getByRole('button', { name: 'Trust and allow running' })).toBeVisible()
  expect(await exportFile(page)).toBe(exported)

  const before = await page
    .getByRole('navigation', { name: 'Graphs and problems' })
    .getByRole('listitem')
    .count()
  const broken = {
    superstep: 1,
    name: 'broken',
    state: [],
    nodes: [{ id: '__end__', code: '(s) =>' }],
    edges: [],
  }
  await page.getByLabel('Import a graph file').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(broken)),
  })
  const dialog = page.getByRole('alertdialog', { name: 'Import problems' })
  await expect(dialog).toContainText('broken.json was not imported')
  await expect(dialog).toContainText('RESERVED_NODE_NAME')
  await expect(dialog).toContainText('CODE_SYNTAX')
  // Each problem is read whole: none is cut short.
  const details = dialog.locator('.issue-detail')
  await expect(details).not.toHaveCount(0)
  for (const d of await details.all())
    expect(await d.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
  await dialog.getByRole('button', { name: 'Dismiss' }).click()
  await expect(
    page.getByRole('navigation', { name: 'Graphs and problems' }).getByRole('listitem'),
  ).toHaveCount(before)
})

test('live checks flag an unreachable node and a concurrent write to an overwrite field', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  await expect(problems(page)).toContainText('Node `node_1` is not reachable.')
  await problems(page)
    .getByRole('button', { name: /not reachable/ })
    .click()
  await expect(page.getByRole('textbox', { name: 'Node id' })).toHaveValue('node_1')
  // The toolbar's Delete removes the selected culprit, and one undo brings it back.
  const tools = page.getByRole('toolbar', { name: 'Canvas tools' })
  await tools.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(node(page, 'node_1')).toHaveCount(0)
  await expect(problems(page)).not.toContainText('not reachable')
  await page.getByRole('button', { name: 'Undo', exact: true }).click()
  await expect(node(page, 'node_1')).toHaveCount(1)

  const racy = {
    superstep: 1,
    name: 'racy',
    state: [{ name: 'answer' }],
    nodes: [
      { id: 'a', code: "(s) => ({ answer: 'a' })" },
      { id: 'b', code: "(s) => ({ answer: 'b' })" },
    ],
    edges: [
      { from: '__start__', to: 'a' },
      { from: '__start__', to: 'b' },
    ],
  }
  await page.getByLabel('Import a graph file').setInputFiles({
    name: 'racy.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(racy)),
  })
  await expect(problems(page)).toContainText('answer')
  await expect(problems(page)).toContainText('CONCURRENT_WRITE_RISK')
  await expect(node(page, 'a')).toBeVisible()
})

test('a graph file dropped onto the canvas is imported', async ({ page }) => {
  const doc = {
    superstep: 1,
    name: 'dropped',
    state: [],
    nodes: [{ id: 'x', code: '(s) => ({})' }],
    edges: [{ from: '__start__', to: 'x' }],
  }
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer()
    dt.items.add(new File([text], 'dropped.json', { type: 'application/json' }))
    return dt
  }, JSON.stringify(doc))
  await page.dispatchEvent('main[aria-label="Canvas"]', 'drop', { dataTransfer })
  await expect(page.getByRole('heading', { level: 1, name: 'dropped' })).toBeAttached()
  await expect(node(page, 'x')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Trust and allow running' })).toBeVisible()
})

test('a problem shows its culprit: a broken edge selected on the canvas, a duplicate field focused', async ({
  page,
}) => {
  // Edits and imports refuse such a graph, so it is written where a saved graph lives.
  const doc = {
    superstep: 1,
    name: 'culprits',
    state: [{ name: 'count', reducer: 'add', default: 0 }, { name: 'count' }],
    nodes: [{ id: 'a', code: '(s) => ({})', position: { x: 0, y: 0 } }],
    edges: [
      { from: '__start__', to: 'a' },
      { from: 'a', to: 'ghost' },
      { from: 'a', to: '__end__' },
    ],
  }
  await page.evaluate(async (d) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('superstep')
      r.onsuccess = () => resolve(r.result)
      r.onerror = () => reject(r.error)
    })
    const at = new Date().toISOString()
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('graphs', 'readwrite')
      tx.objectStore('graphs').put({
        ...{ id: 'e2e-culprits', name: d.name, doc: d, trusted: false, allowNetwork: false },
        ...{ createdAt: at, updatedAt: at },
      })
      tx.oncomplete = () => resolve()
      tx.onerror = () => reject(tx.error)
    })
    db.close()
  }, doc)
  await page.reload()
  await problems(page)
    .getByRole('button', { name: /^culprits/ })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'culprits' })).toBeAttached()

  const edge = page.locator('.react-flow__edge[data-id="e:1"]')
  await expect(edge).not.toHaveClass(/\bselected\b/)
  await problems(page)
    .getByRole('button', { name: /unknown node `ghost`/ })
    .click()
  await expect(edge).toHaveClass(/\bselected\b/)
  await expect(page.locator('.react-flow__edge.selected')).toHaveCount(1)
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(0)
  await expect(page.getByRole('complementary', { name: 'Inspector' })).toContainText(
    'Edge a → ghost',
  )

  // With the keyboard: the duplicate field's problem focuses that field's row, not the first.
  const rows = page.getByRole('table', { name: 'State fields' }).locator('.field-row')
  await problems(page)
    .getByRole('button', { name: /`count` is defined twice/ })
    .focus()
  await page.keyboard.press('Enter')
  await expect(page.locator('.react-flow__edge.selected')).toHaveCount(0)
  await expect(rows.nth(1).getByRole('textbox', { name: 'Field name' })).toBeFocused()
  await expect(rows.nth(1)).toHaveClass(/field-row-focused/)
  await expect(rows.nth(1)).toHaveAttribute('aria-current', 'true')
  await expect(rows.nth(1)).toBeInViewport()
  await expect(rows.nth(0)).not.toHaveClass(/field-row-focused/)
  // The highlight goes when focus leaves the row.
  await page.keyboard.press('Shift+Tab')
  await expect(rows.nth(1)).not.toHaveClass(/field-row-focused/)
})

test('Undo of a code edit reaches the open editor; what is typed after it is kept', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  const lines = await nodeCodeLines(page, 'node_1')
  // The whole code, once Monaco has drawn it (its first frame may hold only part of a line).
  const original = '(state) => ({})' // a new node's code
  await expect(lines).toHaveText(original.replace(/ /g, '\u00a0'))
  await lines.click()
  await page.keyboard.press('ControlOrMeta+End')
  await page.keyboard.type(' // one', { delay: 20 })
  // Committed (blur), then undone from the top bar: the editor shows the code before it.
  await page.getByRole('button', { name: 'Add node', exact: true }).focus()
  await expect(lines).toContainText('// one')
  await page.getByRole('button', { name: 'Undo', exact: true }).click()
  await expect(lines).toHaveText(original.replace(/ /g, '\u00a0'))
  // Typing goes on from the undone text, every key kept.
  await lines.click()
  await page.keyboard.press('ControlOrMeta+End')
  await page.keyboard.type(' // two', { delay: 20 })
  await expect(lines).toHaveText(`${original} // two`.replace(/ /g, '\u00a0'))
})

test('a ternary and ?? typed into the code editor keep every key; broken code says why Run cannot go', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  await connect(page, '__start__', 'node_1')
  await connect(page, 'node_1', '__end__')
  await expect(problems(page)).toContainText('No problems')
  const lines = await nodeCodeLines(page, 'node_1')
  await expect(lines).toHaveText('(state) => ({})'.replace(/ /g, '\u00a0'))
  await lines.click()
  await page.keyboard.press('ControlOrMeta+End')
  // `?` is also the shortcuts key: in the editor it is a character.
  await page.keyboard.type(' // a ? b : c ?? d', { delay: 20 })
  await expect(lines).toContainText('// a ? b : c ?? d'.replace(/ /g, '\u00a0'))
  await expect(page.getByRole('dialog')).toHaveCount(0)
  // Break the code and press Run: the run says why it cannot go, on the node and line.
  await page.keyboard.press('ControlOrMeta+Home')
  await page.keyboard.type('+* ', { delay: 20 })
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  const error = page.getByLabel('Run error')
  await expect(error).toContainText('cannot run')
  await expect(error).toContainText('does not parse')
  // Open code goes back to it; fixed, Run works again.
  await error.getByRole('button', { name: 'Open code' }).click()
  await lines.click()
  await page.keyboard.press('ControlOrMeta+Home')
  for (let i = 0; i < 3; i++) await page.keyboard.press('Delete')
  await page.getByRole('button', { name: 'Add node', exact: true }).focus()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
  await expect(error).toHaveCount(0)
})

test('Select All then typing replaces the code, brackets and quotes included', async ({ page }) => {
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  const lines = await nodeCodeLines(page, 'node_1')
  await expect(lines).toHaveText('(state) => ({})'.replace(/ /g, '\u00a0'))
  await lines.click()
  await page.keyboard.press('ControlOrMeta+A')
  // The first key is a bracket: it replaces the selection, it does not wrap it.
  await page.keyboard.type("(s) => ({ x: 'a' })", { delay: 20 })
  await expect(lines).toHaveText("(s) => ({ x: 'a' })".replace(/ /g, '\u00a0'))
})
