import { expect, test, type Page, type Worker } from '@playwright/test'
import { chainGraph } from '../bench/graphs'

/**
 * Auto layout of a big graph, as a user meets it: elk works in a worker while a progress line
 * says what it is doing and for how long, the canvas stays usable, and Cancel stops the worker
 * and leaves the graph as it was. (A finished layout in the app, its progress line and its one
 * undo step: canvas.spec.ts.)
 */

const tools = (page: Page) => page.getByRole('toolbar', { name: 'Canvas tools' })
const progress = (page: Page) => page.getByRole('status', { name: 'Layout progress' })

/** A node's flow position, read from React Flow's transform. */
const flowAt = (page: Page, id: string) =>
  page.locator(`.react-flow__node[data-id="${id}"]`).evaluate((el) => {
    const m = /translate\((-?[\d.]+)px, ?(-?[\d.]+)px\)/.exec((el as HTMLElement).style.transform)
    return m ? { x: Number(m[1]), y: Number(m[2]) } : null
  })

const seconds = async (page: Page) =>
  Number(/([\d.]+) s/.exec((await progress(page).textContent()) ?? '')?.[1] ?? NaN)

test('a 2,000-node layout shows its progress, leaves the canvas usable, and Cancel changes nothing', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const layoutWorkers: Worker[] = []
  page.on('worker', (w) => {
    if (/layout\.worker/.test(w.url())) layoutWorkers.push(w)
  })
  await page.goto('/canvas-test.html?bench=2000')
  // Only the nodes in view are rendered: take one of them.
  const shown = page.locator('.react-flow__node[data-id^="n"]')
  await expect(shown.first()).toBeVisible({ timeout: 60_000 })
  const picked = (await shown.nth(Math.floor((await shown.count()) / 2)).getAttribute('data-id'))!
  const node = page.locator(`.react-flow__node[data-id="${picked}"]`)
  const before = await flowAt(page, picked)

  await tools(page).getByRole('button', { name: 'Auto layout', exact: true }).click()
  await expect(progress(page)).toContainText('Laying out 2,000 nodes…')
  await expect(tools(page).getByRole('button', { name: 'Laying out…' })).toBeDisabled()
  // The elapsed time ticks, and the phase moves on once elk has the graph.
  const first = await seconds(page)
  await expect.poll(() => seconds(page)).toBeGreaterThan(first)
  await expect(progress(page)).toContainText(/sent to the layout worker|elk at work/)
  await expect(progress(page)).toContainText('elk at work', { timeout: 60_000 })
  await page.screenshot({ path: test.info().outputPath('layout-progress.png') })

  // The canvas answers meanwhile: a click selects a node.
  await node.click()
  await expect
    .poll(() =>
      page.evaluate(
        () => (window as unknown as { __canvas: { selection: { nodes: string[] } } }).__canvas,
      ),
    )
    .toMatchObject({ selection: { nodes: [picked] } })
  await expect(progress(page)).toBeVisible()

  expect(layoutWorkers).toHaveLength(1)
  const closed = new Promise<void>((resolve) => layoutWorkers[0]?.once('close', () => resolve()))
  await tools(page).getByRole('button', { name: 'Cancel', exact: true }).click()
  await closed
  await expect(progress(page)).toHaveCount(0)
  await expect(tools(page).getByRole('button', { name: 'Auto layout', exact: true })).toBeEnabled()
  await expect(tools(page).getByRole('alert')).toHaveCount(0)
  const moves = await page.evaluate(() =>
    (window as unknown as { __canvas: { edits: { type: string }[] } }).__canvas.edits.filter(
      (e) => e.type === 'moveNodes',
    ),
  )
  expect(moves).toEqual([])
  expect(await flowAt(page, picked)).toEqual(before)
})

test('a 5,000-node, 7,500-edge layout runs to its end in the worker: one moveNodes, in ranks', async ({
  page,
}) => {
  // elk's own cycle breaking and layering once ran out of stack here ("Auto layout failed");
  // above 1,000 nodes it is handed ranks found without recursion (elkLayout.ts acyclicRanks).
  test.setTimeout(240_000)
  await page.goto('/canvas-test.html?bench=5000')
  await expect(page.locator('.react-flow__node[data-id^="n"]').first()).toBeVisible({
    timeout: 60_000,
  })
  const layout = tools(page).getByRole('button', { name: 'Auto layout', exact: true })
  const started = Date.now()
  await layout.click()
  await expect(progress(page)).toContainText('Laying out 5,000 nodes…')
  await expect(progress(page)).toContainText('elk at work', { timeout: 60_000 })
  await expect(progress(page)).toHaveCount(0, { timeout: 200_000 })
  test.info().annotations.push({ type: 'layout', description: `${Date.now() - started} ms` })
  await expect(tools(page).getByRole('alert')).toHaveCount(0)
  await expect(layout).toBeEnabled()
  type Move = { id: string; position: { x: number; y: number } }
  const moves = await page.evaluate(
    () =>
      (
        window as unknown as { __canvas: { edits: { type: string; moves?: Move[] }[] } }
      ).__canvas.edits.filter((e) => e.type === 'moveNodes') as { moves: Move[] }[],
  )
  expect(moves).toHaveLength(1)
  const at = new Map(moves[0]!.moves.map((m) => [m.id, m.position]))
  expect(at.size).toBe(5000)
  // The chain n0 → n1 → … runs down the ranks (the canvas's default direction is left to
  // right: along x), each node in a rank after the one before it.
  for (let i = 0; i + 1 < 5000; i += 97)
    expect(at.get(`n${i + 1}`)!.x, `n${i + 1} after n${i}`).toBeGreaterThan(at.get(`n${i}`)!.x)
  expect(new Set([...at.values()].map((p) => `${p.x},${p.y}`)).size).toBe(5000)
})

test('in the app at 1280x800, the progress and Cancel stay in view; the laid-out graph is shown from START', async ({
  page,
}) => {
  test.setTimeout(180_000)
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await page.getByLabel('Import a graph file').setInputFiles({
    name: 'chain.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(chainGraph(2000))),
  })
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  // A wider inspector leaves the canvas narrower than its tools.
  const separator = page.getByRole('separator', { name: 'Inspector' })
  await separator.focus()
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft')
  await tools(page).getByRole('button', { name: 'Auto layout', exact: true }).click()
  // Once the tools scrolled with the line they share, the progress was out of sight.
  await expect(progress(page)).toContainText('Laying out 2,000 nodes…')
  await expect(progress(page)).toBeInViewport({ ratio: 1 })
  const canvas = await page.getByRole('main', { name: 'Canvas' }).boundingBox()
  const cancel = await tools(page)
    .getByRole('button', { name: 'Cancel', exact: true })
    .boundingBox()
  expect(cancel!.x + cancel!.width).toBeLessThanOrEqual(canvas!.x + canvas!.width)
  await expect(progress(page)).toHaveCount(0, { timeout: 150_000 })
  await expect(tools(page).getByRole('alert')).toHaveCount(0)
  // A chain of 2,000 ranks cannot fit even at the least zoom: the view starts at START.
  await expect(page.locator('.react-flow__node[data-id="__start__"]')).toBeInViewport()
  await expect(page.locator('.react-flow__node[data-id="n1"]')).toBeInViewport()
})
