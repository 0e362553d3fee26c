import { expect, test, type Page } from '@playwright/test'

/**
 * A big graph (over 500 nodes) zoomed out past 0.4 (src/ui/canvas/detail.ts): nodes are plain
 * boxes, edges straight lines the canvas draws itself; zoomed in, the full nodes and React
 * Flow's edges come back. canvas-test.html's generated 600-node graph fits at zoom 0.3.
 */

const zoom = (page: Page) =>
  page
    .locator('.react-flow__viewport')
    .evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a)

/** Ctrl+wheel at the middle of the canvas until `want(zoom)`. */
async function zoomUntil(page: Page, want: (z: number) => boolean, deltaY: number) {
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

/** A document node fully on screen, clear of the toolbar and the zoom buttons. */
const nodeInView = (page: Page) =>
  page.evaluate(() => {
    const all = [...document.querySelectorAll<HTMLElement>('[data-node-id^="n"]')]
    const hit = all
      .map((el) => ({ id: el.dataset.nodeId ?? '', r: el.getBoundingClientRect() }))
      .find(
        ({ r }) => r.width > 0 && r.left > 300 && r.right < 980 && r.top > 200 && r.bottom < 600,
      )
    if (!hit) throw new Error('no node in the middle of the screen')
    return { id: hit.id, x: hit.r.left + hit.r.width / 2, y: hit.r.top + hit.r.height / 2 }
  })

const edits = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __canvas: { edits: Record<string, unknown>[] } }).__canvas.edits.map(
      (e) => ({ ...e }),
    ),
  )

test.beforeEach(async ({ page }) => {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  await page.goto('/canvas-test.html?bench=600')
  await expect(page.locator('.react-flow__node-step').first()).toBeAttached()
  await expect.poll(() => zoom(page)).toBeLessThan(0.4)
  expect(errors).toEqual([])
})

test('zoomed out: boxes and lines with their names kept; zoomed in: the full nodes and edges', async ({
  page,
}) => {
  const lines = page.locator('.ss-lod-edges path[data-edge-id]')
  await expect(lines.first()).toBeAttached()
  expect(await page.locator('.react-flow__edge').count()).toBe(0)
  const steps = await page.locator('.react-flow__node-step').count()
  expect(steps).toBeGreaterThan(20)
  expect(await page.locator('.react-flow__node-step .ss-box').count()).toBe(steps)
  expect(await page.locator('.react-flow__node-step .ss-kind').count()).toBe(0)
  // No React Flow handle components, only the measured stubs.
  expect(await page.locator('.react-flow__handle:not(.ss-handle-stub)').count()).toBeLessThan(5)
  // The keyboard and screen readers still find each node by its name.
  const { id } = await nodeInView(page)
  await expect(page.locator(`[data-node-id="${id}"]`)).toHaveAccessibleName(`Node ${id}, code`)
  // A line leaves its source on the right, level with the box's middle.
  const box = (await page.locator(`[data-node-id="${id}"]`).boundingBox())!
  const out = await page.locator('.ss-lod-edges path[data-edge-id^="e:"]').evaluateAll(
    (paths, want) =>
      paths
        .map((p) => {
          const d = (p as SVGPathElement).getBoundingClientRect()
          return { left: d.left, top: d.top, bottom: d.bottom }
        })
        .filter((r) => Math.abs(r.left - want.right) < 3)
        .filter((r) => Math.abs(r.top - want.middle) < 3 || Math.abs(r.bottom - want.middle) < 3)
        .length,
    { right: box.x + box.width, middle: box.y + box.height / 2 },
  )
  expect(out).toBeGreaterThan(0)

  await zoomUntil(page, (z) => z >= 0.4, -100)
  await expect(page.locator('.react-flow__edge').first()).toBeAttached()
  await expect(page.locator('.ss-lod-edges')).toHaveCount(0)
  await expect(page.locator('.react-flow__node-step .ss-box')).toHaveCount(0)
  await expect(page.locator('.react-flow__node-step .ss-kind').first()).toBeVisible()
  expect(await page.locator('.react-flow__node-step .react-flow__handle').count()).toBeGreaterThan(
    0,
  )

  await zoomUntil(page, (z) => z < 0.4, 100)
  await expect(page.locator('.react-flow__edge')).toHaveCount(0)
  await expect(lines.first()).toBeAttached()
})

test('a drag zoomed out is one moveNodes, and the lines of the node follow it', async ({
  page,
}) => {
  const target = await nodeInView(page)
  // The chain edge into the node (n<i-1> → n<i>) is e:<i> in the generated graph.
  const into = page.locator(`.ss-lod-edges path[data-edge-id="e:${target.id.slice(1)}"]`)
  const before = await into.getAttribute('d')
  expect(before).toBeTruthy()
  await page.mouse.move(target.x, target.y)
  await page.mouse.down()
  for (let i = 1; i <= 10; i++) await page.mouse.move(target.x + i * 8, target.y + i * 4)
  // During the drag the line already follows the node.
  await expect.poll(() => into.getAttribute('d')).not.toBe(before)
  await page.mouse.up()
  const moves = (await edits(page)).filter((e) => e.type === 'moveNodes')
  expect(moves).toHaveLength(1)
  expect(JSON.stringify(moves[0])).toContain(`"${target.id}"`)
  await expect.poll(() => into.getAttribute('d')).not.toBe(before)
})

test('an edge selected zoomed in stays marked zoomed out; a click on the pane unselects it', async ({
  page,
}) => {
  await zoomUntil(page, (z) => z >= 0.4, -100)
  // A straight chain edge near the middle of the screen, clicked on its path.
  const hit = await page.evaluate(() => {
    for (const g of document.querySelectorAll<SVGGElement>('.react-flow__edge')) {
      const path = g.querySelector('path.react-flow__edge-path') as SVGPathElement | null
      if (!path || !g.dataset.id?.startsWith('e:')) continue
      const p = path.getPointAtLength(path.getTotalLength() / 2)
      const m = path.getScreenCTM()!
      const x = p.x * m.a + p.y * m.c + m.e
      const y = p.x * m.b + p.y * m.d + m.f
      if (x > 300 && x < 980 && y > 200 && y < 600) return { id: g.dataset.id, x, y }
    }
    throw new Error('no edge in the middle of the screen')
  })
  await page.mouse.click(hit.x, hit.y)
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          (window as unknown as { __canvas: { selection: { edges: string[] } } }).__canvas.selection
            .edges,
      ),
    )
    .toEqual([hit.id])

  await zoomUntil(page, (z) => z < 0.4, 100)
  const selected = page.locator('.ss-lod-edges path.ss-selected')
  await expect(selected).toHaveCount(1)
  await expect(selected).toHaveAttribute('data-edge-id', hit.id)
  // An empty spot of the pane (between the rows of nodes).
  const spot = await page.evaluate(() => {
    for (let y = 220; y < 600; y += 3)
      for (let x = 320; x < 960; x += 40)
        if (document.elementFromPoint(x, y)?.classList.contains('react-flow__pane')) return { x, y }
    throw new Error('no empty spot on the pane')
  })
  await page.mouse.click(spot.x, spot.y)
  await expect(selected).toHaveCount(0)
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          (window as unknown as { __canvas: { selection: { edges: string[] } } }).__canvas.selection
            .edges,
      ),
    )
    .toEqual([])
})
