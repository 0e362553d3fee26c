import { expect, test, type Page } from '@playwright/test'
import { pickGraphFile } from './graphFiles'

/** The edits the canvas emitted so far (canvas-test.html keeps them on window.__canvas). */
const edits = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __canvas: { edits: { type: string }[] } }).__canvas.edits.map((e) => ({
      ...e,
    })),
  )
const editsOf = async (page: Page, type: string) =>
  (await edits(page)).filter((e) => e.type === type) as Record<string, unknown>[]

const node = (page: Page, id: string) => page.locator(`[data-node-id="${id}"]`)

async function centre(page: Page, id: string) {
  const box = await node(page, id).boundingBox()
  if (!box) throw new Error(`node ${id} is not on screen`)
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
}

/** Clicks the middle of an edge's path (a self-loop's box centre is not on the path). */
async function clickEdge(page: Page, label: string) {
  const point = await page.getByLabel(label, { exact: true }).evaluate((g) => {
    const path = g.querySelector('path.react-flow__edge-path') as SVGPathElement
    const p = path.getPointAtLength(path.getTotalLength() / 2)
    const m = path.getScreenCTM()!
    return { x: p.x * m.a + p.y * m.c + m.e, y: p.x * m.b + p.y * m.d + m.f }
  })
  await page.mouse.click(point.x, point.y)
}

test.beforeEach(async ({ page }) => {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  await page.goto('/canvas-test.html')
  await expect(node(page, 'inc')).toBeVisible()
  expect(errors).toEqual([])
})

test('renders START, END, the nodes and every kind of edge', async ({ page }) => {
  await expect(page.getByLabel('START', { exact: true })).toBeVisible()
  await expect(page.getByLabel('END', { exact: true })).toBeVisible()
  for (const id of ['inc', 'left', 'right', 'merge', 'review', 'spare']) {
    await expect(page.getByLabel(new RegExp(`^Node ${id}, `))).toBeVisible()
  }
  for (const label of [
    'Edge START → inc',
    'Path again: inc → inc',
    'Path done: inc → merge',
    'Join source left → merge',
    'Join [left, right] → merge',
    'Command goto: merge → review',
  ]) {
    await expect(page.getByLabel(label, { exact: true })).toBeAttached()
  }
  await expect(page.getByLabel('Join → merge', { exact: true })).toBeVisible()
  // the unreachable node carries an error badge with the message as its title
  const badge = node(page, 'spare').locator('.ss-issues-error')
  await expect(badge).toBeVisible()
  await expect(badge).toHaveAttribute('title', /not reachable/)
})

test('marks a node that calls interrupt as human-in-the-loop', async ({ page }) => {
  await expect(node(page, 'review').getByRole('img', { name: 'Human in the loop' })).toBeVisible()
  await expect(node(page, 'inc').getByRole('img', { name: 'Human in the loop' })).toHaveCount(0)
})

test('double-click on the pane adds a node there', async ({ page }) => {
  await page.mouse.dblclick(640, 700)
  await expect(node(page, 'node_1')).toBeVisible()
  const [add] = await editsOf(page, 'addNode')
  expect(add).toMatchObject({ type: 'addNode', id: 'node_1' })
  const box = await node(page, 'node_1').boundingBox()
  expect(Math.abs((box?.x ?? 0) - 640)).toBeLessThan(40)
})

test('dragging a node emits one moveNodes at the end, none during the drag', async ({ page }) => {
  const from = await centre(page, 'spare')
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  for (let i = 1; i <= 20; i++) await page.mouse.move(from.x + i * 8, from.y + i * 3)
  expect(await editsOf(page, 'moveNodes')).toHaveLength(0)
  const during = await centre(page, 'spare')
  expect(during.x).toBeGreaterThan(from.x + 100)
  await page.mouse.up()
  const moves = await editsOf(page, 'moveNodes')
  expect(moves).toHaveLength(1)
  const before = { x: 810, y: 180 }
  const [m] = (moves[0]?.moves ?? []) as { id: string; position: { x: number; y: number } }[]
  expect(m?.id).toBe('spare')
  expect(m!.position.x).toBeGreaterThan(before.x)
  expect(m!.position.x % 15).toBe(0)
  const doc = await page.evaluate(() => window.__canvas.doc.nodes.find((n) => n.id === 'spare'))
  expect(doc?.position).toEqual(m!.position)
})

test('connecting two handles adds an edge', async ({ page }) => {
  const source = node(page, 'spare').locator('.react-flow__handle.source')
  const target = node(page, '__end__').locator('.react-flow__handle.target')
  await source.dragTo(target)
  expect(await editsOf(page, 'addEdge')).toEqual([
    { type: 'addEdge', from: 'spare', to: '__end__' },
  ])
  await expect(page.getByLabel('Edge spare → END', { exact: true })).toBeAttached()
})

test('Delete removes the selected node; Backspace a selected edge', async ({ page }) => {
  await node(page, 'spare').click()
  await page.keyboard.press('Delete')
  await expect(node(page, 'spare')).toHaveCount(0)
  expect(await editsOf(page, 'deleteNodes')).toEqual([{ type: 'deleteNodes', ids: ['spare'] }])

  await clickEdge(page, 'Path again: inc → inc')
  await page.keyboard.press('Backspace')
  await expect(page.getByLabel('Path again: inc → inc', { exact: true })).toHaveCount(0)
  expect(await editsOf(page, 'deleteBranchPath')).toEqual([
    { type: 'deleteBranchPath', index: 0, key: 'again' },
  ])
  // START cannot be deleted
  await node(page, '__start__').click()
  await page.keyboard.press('Delete')
  await expect(node(page, '__start__')).toBeVisible()
})

test('renames a node inline: Enter commits, Escape cancels, a taken name is refused', async ({
  page,
}) => {
  await node(page, 'spare').locator('.ss-label').dblclick()
  const input = page.getByLabel('Node name')
  await input.fill('merge')
  await input.press('Enter')
  await expect(page.getByRole('alert')).toContainText('already present')
  await input.press('Escape')
  await expect(input).toHaveCount(0)
  await node(page, 'spare').locator('.ss-label').dblclick()
  // The name comes selected: what is typed replaces it.
  await expect(page.getByLabel('Node name')).toBeFocused()
  await page.keyboard.type('extra')
  await page.keyboard.press('Enter')
  await expect(node(page, 'extra')).toBeVisible()
  expect(await editsOf(page, 'renameNode')).toEqual([
    { type: 'renameNode', from: 'spare', to: 'extra' },
  ])
})

test('shift-click selects several nodes; Join makes one addJoin', async ({ page }) => {
  await expect(page.getByRole('button', { name: 'Join', exact: true })).toBeDisabled()
  await node(page, 'review').click()
  await node(page, 'spare').click({ modifiers: ['Shift'] })
  await expect
    .poll(() => page.evaluate(() => window.__canvas.selection.nodes))
    .toEqual(['review', 'spare'])
  await page.getByRole('button', { name: 'Join', exact: true }).click()
  await page.getByRole('combobox', { name: 'Join into' }).selectOption('__end__')
  expect(await editsOf(page, 'addJoin')).toEqual([
    { type: 'addJoin', from: ['review', 'spare'], to: '__end__' },
  ])
  await expect(page.getByLabel('Join [review, spare] → END', { exact: true })).toBeAttached()
})

test('box select with Shift, then one drag moves both as one moveNodes', async ({ page }) => {
  const a = await node(page, 'left').boundingBox()
  const b = await node(page, 'right').boundingBox()
  if (!a || !b) throw new Error('nodes not on screen')
  await page.keyboard.down('Shift')
  await page.mouse.move(a.x - 20, a.y - 20)
  await page.mouse.down()
  await page.mouse.move(b.x + b.width + 20, b.y + b.height + 20, { steps: 8 })
  await page.mouse.up()
  await page.keyboard.up('Shift')
  await expect
    .poll(() => page.evaluate(() => [...window.__canvas.selection.nodes].sort()))
    .toEqual(['left', 'right'])
  const from = await centre(page, 'left')
  await page.mouse.move(from.x, from.y)
  await page.mouse.down()
  await page.mouse.move(from.x + 90, from.y + 30, { steps: 10 })
  await page.mouse.up()
  const moves = await editsOf(page, 'moveNodes')
  expect(moves).toHaveLength(1)
  const ids = (moves[0]?.moves as { id: string }[]).map((m) => m.id).sort()
  expect(ids).toEqual(['left', 'right'])
})

test('copy and paste a node, 40 px off', async ({ page }) => {
  await node(page, 'spare').click()
  await page.keyboard.press('ControlOrMeta+c')
  await page.keyboard.press('ControlOrMeta+v')
  await expect(node(page, 'spare_copy')).toBeVisible()
  const [paste] = await editsOf(page, 'paste')
  expect(paste).toMatchObject({ offset: { x: 40, y: 40 } })
})

test('Auto layout is one moveNodes of every node; the toolbar is named', async ({ page }) => {
  for (const name of ['Add node', 'Auto layout', 'Left to right', 'Top to bottom', 'Fit view']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeVisible()
  }
  await page.getByRole('button', { name: 'Top to bottom', exact: true }).click()
  await page.getByRole('button', { name: 'Auto layout', exact: true }).click()
  const moves = await editsOf(page, 'moveNodes')
  expect(moves).toHaveLength(1)
  expect((moves[0]?.moves as unknown[]).length).toBe(6)
  const inc = await centre(page, 'inc')
  const merge = await centre(page, 'merge')
  expect(merge.y).toBeGreaterThan(inc.y)
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  await expect(node(page, 'node_1')).toBeVisible()
})

test('run overlay and dark mode', async ({ page }) => {
  await page.goto('/canvas-test.html?overlay=1&dark=1')
  await expect(page.locator('.react-flow.dark')).toBeVisible()
  await expect(node(page, 'inc').locator('.ss-ran')).toBeVisible()
  await expect(node(page, 'inc').getByLabel('Step 1')).toBeVisible()
  await expect(node(page, 'left').locator('.ss-next')).toBeVisible()
})

/** A node's flow position, read from React Flow's transform. */
const flowAt = (page: Page, id: string) =>
  page.locator(`.react-flow__node[data-id="${id}"]`).evaluate((el) => {
    const m = /translate\((-?[\d.]+)px, ?(-?[\d.]+)px\)/.exec((el as HTMLElement).style.transform)
    return m ? { x: Number(m[1]), y: Number(m[2]) } : null
  })

test('Auto layout of a big graph: elk in a worker, progress, one moveNodes in ranks, both directions', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const workers: string[] = []
  page.on('worker', (w) => workers.push(w.url()))
  await page.goto('/canvas-test.html?bench=300')
  await expect(page.locator('.react-flow__node[data-id="n299"]')).toBeAttached()
  const tools = page.getByRole('toolbar', { name: 'Canvas tools' })
  const layout = tools.getByRole('button', { name: 'Auto layout', exact: true })
  await layout.click()
  await expect(tools.getByRole('button', { name: 'Laying out…' })).toBeDisabled()
  await expect(layout).toBeEnabled({ timeout: 100_000 })
  await expect(tools.getByRole('alert')).toHaveCount(0)
  expect(workers.some((url) => /layout\.worker/.test(url))).toBe(true)

  type Move = { id: string; position: { x: number; y: number } }
  const lastMoves = async () => {
    const all = await editsOf(page, 'moveNodes')
    return {
      count: all.length,
      at: new Map((all.at(-1)?.moves as Move[]).map((m) => [m.id, m.position])),
    }
  }
  const lr = await lastMoves()
  expect(lr.count).toBe(1)
  expect(lr.at.size).toBe(300)
  // The chain n0 → n1 → … runs along x, past the old grid's row ends (n24 → n25).
  for (let i = 0; i < 60; i++)
    expect(lr.at.get(`n${i + 1}`)!.x, `n${i + 1} right of n${i}`).toBeGreaterThan(
      lr.at.get(`n${i}`)!.x,
    )
  await expect.poll(async () => (await flowAt(page, 'n25'))?.x).toBe(lr.at.get('n25')!.x)
  const start = await flowAt(page, '__start__')
  expect(start!.x).toBeLessThan(lr.at.get('n0')!.x)

  await tools.getByRole('button', { name: 'Top to bottom', exact: true }).click()
  await layout.click()
  await expect(layout).toBeEnabled({ timeout: 100_000 })
  const tb = await lastMoves()
  expect(tb.count).toBe(2)
  for (let i = 0; i < 60; i++)
    expect(tb.at.get(`n${i + 1}`)!.y, `n${i + 1} below n${i}`).toBeGreaterThan(
      tb.at.get(`n${i}`)!.y,
    )
})

test('in the app, Auto layout of a big graph is one edit: one Undo puts every node back', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const n = 300
  const id = (i: number) => `n${i}`
  const doc = {
    superstep: 1,
    name: 'big chain',
    state: [],
    nodes: Array.from({ length: n }, (_, i) => ({
      id: id(i),
      code: '(s) => ({})',
      position: { x: (i % 20) * 240, y: Math.floor(i / 20) * 90 },
    })),
    edges: [
      { from: '__start__', to: id(0) },
      ...Array.from({ length: n - 1 }, (_, i) => ({ from: id(i), to: id(i + 1) })),
      { from: id(n - 1), to: '__end__' },
    ],
  }
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await page.getByLabel('Import a graph file').setInputFiles({
    name: 'big.superstep.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  })
  await expect(page.getByRole('heading', { level: 1, name: 'big chain' })).toBeAttached()
  await expect(page.locator(`.react-flow__node[data-id="${id(n - 1)}"]`)).toBeAttached()
  const undo = page.getByRole('button', { name: 'Undo', exact: true })
  await expect(undo).toBeDisabled()
  const before = await flowAt(page, 'n20')
  expect(before).toEqual({ x: 0, y: 90 })

  const layout = page.getByRole('button', { name: 'Auto layout', exact: true })
  const progress = page.getByRole('status', { name: 'Layout progress' })
  await layout.click()
  await expect(progress).toContainText('Laying out 300 nodes…')
  await expect(layout).toBeEnabled({ timeout: 100_000 })
  await expect(progress).toHaveCount(0)
  await expect
    .poll(async () => (await flowAt(page, 'n20'))!.x)
    .toBeGreaterThan((await flowAt(page, 'n19'))!.x)

  await undo.click()
  await expect.poll(() => flowAt(page, 'n20')).toEqual(before)
  expect(await flowAt(page, 'n19')).toEqual({ x: 19 * 240, y: 0 })
  await expect(undo).toBeDisabled()
})

test('a big layout that fails is reported beside the button and changes nothing', async ({
  page,
}) => {
  await page.route(/layout\.worker/, (route) => route.abort())
  await page.goto('/canvas-test.html?bench=300')
  await expect(page.locator('.react-flow__node[data-id="n299"]')).toBeAttached()
  const tools = page.getByRole('toolbar', { name: 'Canvas tools' })
  await tools.getByRole('button', { name: 'Auto layout', exact: true }).click()
  await expect(tools.getByRole('alert')).toContainText('Auto layout failed')
  await expect(tools.getByRole('alert')).toContainText('The graph was not changed.')
  await expect(tools.getByRole('button', { name: 'Auto layout', exact: true })).toBeEnabled()
  expect(await editsOf(page, 'moveNodes')).toEqual([])
})

test('in the app, a drag that selects a node: the inspector follows once the pointer is released', async ({
  page,
}) => {
  const doc = {
    superstep: 1,
    name: 'two nodes',
    state: [{ name: 'n', reducer: 'add', default: 0 }],
    nodes: [
      { id: 'a', code: '(s) => ({ n: 1 })', position: { x: 0, y: 0 } },
      { id: 'b', code: '(s) => ({ n: 2 })', position: { x: 320, y: 160 } },
    ],
    edges: [
      { from: '__start__', to: 'a' },
      { from: 'a', to: 'b' },
      { from: 'b', to: '__end__' },
    ],
  }
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await pickGraphFile(page, doc)
  const onCanvas = (id: string) => page.locator(`.react-flow__node[data-id="${id}"]`)
  await expect(onCanvas('b')).toBeVisible()
  await onCanvas('a').click()
  await expect(page.getByRole('list', { name: 'Edges of a' })).toBeVisible()

  // Press on b and drag it: b is selected on the canvas at once, the inspector keeps a.
  const box = (await onCanvas('b').boundingBox())!
  await page.mouse.move(box.x + 30, box.y + box.height / 2)
  await page.mouse.down()
  for (let i = 1; i <= 8; i++) await page.mouse.move(box.x + 30 + i * 10, box.y + box.height / 2)
  await expect(onCanvas('b')).toHaveClass(/selected/)
  await page.waitForTimeout(300)
  await expect(page.getByRole('list', { name: 'Edges of a' })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Edges of b' })).toHaveCount(0)
  await page.mouse.up()
  await expect(page.getByRole('list', { name: 'Edges of b' })).toBeVisible()
  // A plain click shows the node clicked, as before.
  await onCanvas('a').click()
  await expect(page.getByRole('list', { name: 'Edges of a' })).toBeVisible()
})
