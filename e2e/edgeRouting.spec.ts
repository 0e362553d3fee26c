import { expect, test, type Locator, type Page } from '@playwright/test'
import { importGraph } from './graphFiles'

/**
 * Edges drawn apart and round other nodes: each of several edges between the same two nodes
 * is clicked at its own middle and deleted alone; a branch path whose straight curve would
 * cross a node goes round it; a join says it waits for all; edges say START and END; the
 * node's context menu keeps its size at any zoom.
 */

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`)
const edge = (page: Page, label: string) => page.locator(`.react-flow__edge[aria-label="${label}"]`)

/** Points along an edge's visible path, in window pixels. */
async function pathPoints(e: Locator, count: number): Promise<{ x: number; y: number }[]> {
  return e.evaluate((g, n) => {
    const path = g.querySelector('path.react-flow__edge-path') as SVGPathElement
    const m = path.getScreenCTM() as DOMMatrix
    const length = path.getTotalLength()
    return Array.from({ length: n + 1 }, (_, i) => {
      const p = path.getPointAtLength((length * i) / n)
      return { x: p.x * m.a + p.y * m.c + m.e, y: p.x * m.b + p.y * m.d + m.f }
    })
  }, count)
}

/** The middle of an edge's visible path, in window pixels. */
async function middle(e: Locator): Promise<{ x: number; y: number }> {
  const points = await pathPoints(e, 2)
  return points[1] as { x: number; y: number }
}

const PAIR = {
  superstep: 1,
  name: 'pairs',
  state: [{ name: 'log', reducer: 'append', default: [] }],
  nodes: [
    { id: 'a', code: "() => ({ log: ['a'] })", position: { x: 0, y: 0 } },
    { id: 'b', code: "() => ({ log: ['b'] })", position: { x: 300, y: 0 } },
    { id: 'c', code: "() => ({ log: ['c'] })", position: { x: 600, y: 0 } },
    { id: 'd', code: "() => ({ log: ['d'] })", position: { x: 300, y: 150 } },
  ],
  edges: [
    { from: '__start__', to: 'a' },
    { from: 'a', to: 'b' },
    { from: 'b', to: 'a' },
    { from: 'c', to: '__end__' },
    { from: 'd', to: '__end__' },
  ],
  branches: [
    { from: 'a', router: "(s) => s.log.length > 3 ? 'y' : 'x'", paths: { x: 'b', y: 'c' } },
    { from: 'b', router: "() => 'z'", paths: { z: 'd', w: 'a' } },
  ],
}

// Four edges between a and b: a fixed edge each way and a branch path each way (two routers).
const BETWEEN = ['Edge a → b', 'Edge b → a', 'Path x: a → b', 'Path w: b → a']

test.beforeEach(async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
})

test('edges between the same two nodes are drawn apart: each is clicked and deleted alone', async ({
  page,
}) => {
  await importGraph(page, PAIR)
  for (const label of BETWEEN) await expect(edge(page, label)).toHaveCount(1)
  // Their middles are apart: none is inside another's hit stroke (20 px wide, 10 each side).
  const mids = await Promise.all(BETWEEN.map((l) => middle(edge(page, l))))
  for (let i = 0; i < mids.length; i++)
    for (let j = i + 1; j < mids.length; j++) {
      const [p, q] = [mids[i], mids[j]] as [{ x: number; y: number }, { x: number; y: number }]
      expect(Math.hypot(p.x - q.x, p.y - q.y), `${BETWEEN[i]} / ${BETWEEN[j]}`).toBeGreaterThan(10)
    }

  for (const label of BETWEEN) {
    const at = await middle(edge(page, label))
    await page.mouse.click(at.x, at.y)
    await expect(edge(page, label)).toHaveClass(/selected/)
    await expect(page.locator('.react-flow__edge.selected')).toHaveCount(1)
    await page.keyboard.press('Delete')
    await expect(edge(page, label)).toHaveCount(0)
    for (const other of BETWEEN.filter((l) => l !== label))
      await expect(edge(page, other), `${other} stays when ${label} goes`).toHaveCount(1)
    // Put it back for the next one (one Undo).
    await page.keyboard.press('Control+z')
    await expect(edge(page, label)).toHaveCount(1)
  }
})

test('a branch path goes round the nodes in its way', async ({ page }) => {
  await importGraph(page, PAIR)
  // a → c in a straight line would go through b.
  const path = edge(page, 'Path y: a → c')
  await expect(path).toHaveCount(1)
  const others = await Promise.all(
    ['b', 'd', '__start__', '__end__'].map(async (id) => ({
      id,
      box: await node(page, id).boundingBox(),
    })),
  )
  const check = async () => {
    const points = await pathPoints(path, 200)
    for (const { id, box } of others) {
      if (!box) throw new Error(`${id} is not on screen`)
      const inside = points.filter(
        (p) => p.x > box.x && p.x < box.x + box.width && p.y > box.y && p.y < box.y + box.height,
      )
      expect(inside, `path y crosses ${id}`).toEqual([])
    }
  }
  await check()
  // Drag d into the way of a → b's way round? No: drag b down out of the way and the path is
  // a plain curve again, still crossing nothing.
  const b = (await node(page, 'b').boundingBox()) as { x: number; y: number; height: number }
  await page.mouse.move(b.x + 60, b.y + b.height / 2)
  await page.mouse.down()
  await page.mouse.move(b.x + 60, b.y + 200, { steps: 8 })
  await page.mouse.up()
  others[0] = { id: 'b', box: await node(page, 'b').boundingBox() }
  await check()
})

test('a join says it waits for all of its sources; edges say START and END', async ({ page }) => {
  await importGraph(page, {
    superstep: 1,
    name: 'joined',
    state: [{ name: 'log', reducer: 'append', default: [] }],
    nodes: [
      { id: 'a', code: "() => ({ log: ['a'] })", position: { x: 0, y: 0 } },
      { id: 'b', code: "() => ({ log: ['b'] })", position: { x: 0, y: 120 } },
      { id: 'c', code: "() => ({ log: ['c'] })", position: { x: 300, y: 60 } },
    ],
    edges: [
      { from: '__start__', to: 'a' },
      { from: '__start__', to: 'b' },
      { from: ['a', 'b'], to: 'c' },
      { from: 'c', to: '__end__' },
    ],
  } as { name: string })
  const says = 'Join: c runs once a and b have all finished (waits for all)'
  const out = edge(page, 'Join [a, b] → c')
  await expect(out).toHaveAttribute('aria-description', says)
  await expect(out.locator('title')).toHaveText(says)
  await expect(edge(page, 'Join source a → c').locator('title')).toHaveText(says)
  await expect(page.locator('.react-flow__node[data-id="join:2"] [title]').first()).toHaveAttribute(
    'title',
    says,
  )
  await expect(edge(page, 'Edge START → a')).toHaveCount(1)
  await expect(edge(page, 'Edge c → END')).toHaveCount(1)
  await expect(edge(page, 'Edge START → a').locator('title')).toHaveText('Edge START → a')
  const names = await page
    .locator('.react-flow__edge')
    .evaluateAll((es) => es.map((e) => `${e.getAttribute('aria-label')} ${e.textContent}`))
  expect(names.join('\n')).not.toMatch(/__start__|__end__/)
})

/** The viewport's zoom. */
const zoom = (page: Page) =>
  page
    .locator('.react-flow__viewport')
    .evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a)

async function zoomTo(page: Page, want: (z: number) => boolean, deltaY: number) {
  const pane = (await page.locator('.react-flow__pane').boundingBox()) as {
    x: number
    y: number
    width: number
    height: number
  }
  await page.mouse.move(pane.x + pane.width / 2, pane.y + pane.height / 2)
  await page.keyboard.down('Control')
  for (let i = 0; i < 40 && !want(await zoom(page)); i++) {
    await page.mouse.wheel(0, deltaY)
    await page.waitForTimeout(30)
  }
  await page.keyboard.up('Control')
  expect(want(await zoom(page))).toBe(true)
}

async function menuBox(page: Page, id: string) {
  const n = node(page, id)
  const box = (await n.boundingBox()) as { x: number; y: number; width: number; height: number }
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { button: 'right' })
  const menu = page.getByRole('menu', { name: `Breakpoints of ${id}` })
  await expect(menu).toBeVisible()
  const size = (await menu.boundingBox()) as { x: number; y: number; width: number; height: number }
  return { menu, size, at: { x: box.x + box.width / 2, y: box.y + box.height / 2 } }
}

test('the node context menu keeps its size at any zoom, at the pointer, inside the window', async ({
  page,
}) => {
  await importGraph(page, PAIR)
  await zoomTo(page, (z) => z <= 0.55, 120)
  const small = await menuBox(page, 'b')
  // At the pointer (in screen space, not scaled with the canvas).
  expect(Math.abs(small.size.x - small.at.x)).toBeLessThan(2)
  expect(Math.abs(small.size.y - small.at.y)).toBeLessThan(2)
  await expect(small.menu.getByRole('menuitemcheckbox', { name: 'Pause before' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(small.menu).toHaveCount(0)

  await zoomTo(page, (z) => z >= 1.9, -120)
  await expect(node(page, 'b')).toBeInViewport()
  const big = await menuBox(page, 'b')
  expect(Math.abs(big.size.width - small.size.width)).toBeLessThan(1)
  expect(Math.abs(big.size.height - small.size.height)).toBeLessThan(1)
  const view = page.viewportSize() as { width: number; height: number }
  expect(big.size.x).toBeGreaterThanOrEqual(0)
  expect(big.size.y).toBeGreaterThanOrEqual(0)
  expect(big.size.x + big.size.width).toBeLessThanOrEqual(view.width)
  expect(big.size.y + big.size.height).toBeLessThanOrEqual(view.height)
  await page.screenshot({ path: '/tmp/shots-edges/menu-zoom2.png' })
  // It still works: Pause after turns that breakpoint on.
  await big.menu.getByRole('menuitemcheckbox', { name: 'Pause after' }).click()
  await expect(big.menu).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Pause after b' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
})
