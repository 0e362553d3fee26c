import { expect, test, type Locator, type Page } from '@playwright/test'

/**
 * The workbench's frame on the built app: resizable and collapsible panels (mouse and
 * keyboard), sizes kept across reloads, the code editor taking the drawer or the window,
 * the canvas's fit and mini map, the problems count, and toolbars that hold one line.
 */

type Box = { x: number; y: number; width: number; height: number }

const box = async (locator: Locator): Promise<Box> => {
  const b = await locator.boundingBox()
  if (!b) throw new Error('no bounding box')
  return b
}
const separator = (page: Page, name: string) => page.getByRole('separator', { name, exact: true })
const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Graphs and problems' })
const inspector = (page: Page) => page.getByRole('complementary', { name: 'Inspector' })
const drawer = (page: Page) => page.getByRole('region', { name: 'Run', exact: true })
const canvas = (page: Page) => page.getByRole('main', { name: 'Canvas' })
const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`)
const toggle = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Panels' }).getByRole('button', { name, exact: true })

const inside = (inner: Box, outer: Box, margin = 0) =>
  inner.x >= outer.x + margin &&
  inner.y >= outer.y + margin &&
  inner.x + inner.width <= outer.x + outer.width - margin &&
  inner.y + inner.height <= outer.y + outer.height - margin
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

async function open(page: Page) {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await expect(node(page, 'inc')).toBeVisible()
}

/** Presses the mouse on the separator's middle and moves it by (dx, dy) in steps. */
async function drag(page: Page, handle: Locator, dx: number, dy: number) {
  const b = await box(handle)
  const x = b.x + b.width / 2
  const y = b.y + b.height / 2
  await page.mouse.move(x, y)
  await page.mouse.down()
  for (let i = 1; i <= 10; i++) await page.mouse.move(x + (dx * i) / 10, y + (dy * i) / 10)
  await page.mouse.up()
}

/** START and END are in the canvas's visible pane, clear of its edges by `margin`. */
async function expectEndsInView(page: Page, margin: number) {
  const pane = await box(canvas(page))
  for (const id of ['__start__', '__end__']) {
    const b = await box(node(page, id))
    expect(inside(b, pane, margin), `${id} ${JSON.stringify(b)} in ${JSON.stringify(pane)}`).toBe(
      true,
    )
  }
}

test('the separators resize the panels with the mouse, and the sizes survive a reload', async ({
  page,
}) => {
  await open(page)
  for (const name of ['Sidebar', 'Inspector', 'Run drawer', 'Timeline'])
    await expect(separator(page, name)).toBeVisible()
  const side = (await box(sidebar(page))).width
  const right = (await box(inspector(page))).width
  const low = (await box(drawer(page))).height

  await drag(page, separator(page, 'Sidebar'), 80, 0)
  await drag(page, separator(page, 'Inspector'), -120, 0)
  await drag(page, separator(page, 'Run drawer'), 0, -90)
  const after = {
    side: (await box(sidebar(page))).width,
    right: (await box(inspector(page))).width,
    low: (await box(drawer(page))).height,
  }
  expect(after.side).toBeGreaterThan(side + 60)
  expect(after.right).toBeGreaterThan(right + 100)
  expect(after.low).toBeGreaterThan(low + 70)

  await page.reload()
  await expect(node(page, 'inc')).toBeVisible()
  expect(Math.abs((await box(sidebar(page))).width - after.side)).toBeLessThan(3)
  expect(Math.abs((await box(inspector(page))).width - after.right)).toBeLessThan(3)
  expect(Math.abs((await box(drawer(page))).height - after.low)).toBeLessThan(3)
})

test('the separators move with the keyboard; Enter, End and the panel buttons collapse and restore', async ({
  page,
}) => {
  await open(page)
  const right = (await box(inspector(page))).width
  const handle = separator(page, 'Inspector')
  await handle.focus()
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await expect.poll(async () => (await box(inspector(page))).width).toBeGreaterThan(right + 40)
  const wider = (await box(inspector(page))).width

  // Enter collapses the inspector (not the canvas before it), and Enter restores it.
  await page.keyboard.press('Enter')
  await expect(inspector(page)).toBeHidden()
  await expect(toggle(page, 'Inspector')).toHaveAttribute('aria-pressed', 'false')
  await page.keyboard.press('Enter')
  await expect(inspector(page)).toBeVisible()
  expect(Math.abs((await box(inspector(page))).width - wider)).toBeLessThan(3)

  // End moves the separator to its end: the inspector collapses; its button brings it back.
  await page.keyboard.press('End')
  await expect(inspector(page)).toBeHidden()
  await toggle(page, 'Inspector').click()
  await expect(inspector(page)).toBeVisible()
  await expect(toggle(page, 'Inspector')).toHaveAttribute('aria-pressed', 'true')

  // The sidebar and the drawer, by their buttons; collapsed stays collapsed after a reload.
  await toggle(page, 'Sidebar').click()
  await expect(sidebar(page)).toBeHidden()
  const drawerSeparator = separator(page, 'Run drawer')
  await drawerSeparator.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('tab', { name: 'Channels' })).toBeHidden()
  await page.reload()
  await expect(node(page, 'inc')).toBeVisible()
  await expect(sidebar(page)).toBeHidden()
  await expect(page.getByRole('tab', { name: 'Channels' })).toBeHidden()
  await expect(toggle(page, 'Run drawer')).toHaveAttribute('aria-pressed', 'false')
  // The canvas took the room: START and END are still in view.
  await expectEndsInView(page, 8)
  await toggle(page, 'Run drawer').click()
  await toggle(page, 'Sidebar').click()
  await expect(page.getByRole('tab', { name: 'Channels' })).toBeVisible()
  await expect(sidebar(page)).toBeVisible()
})

test('at 1280x800 no panel can be squeezed unusable', async ({ page }) => {
  await open(page)
  await separator(page, 'Sidebar').focus()
  await page.keyboard.press('End') // the sidebar as wide as it may be
  await separator(page, 'Inspector').focus()
  await page.keyboard.press('Home') // the inspector as wide as it may be
  await separator(page, 'Run drawer').focus()
  await page.keyboard.press('Home') // the drawer as tall as it may be
  const pane = await box(canvas(page))
  expect(pane.width).toBeGreaterThanOrEqual(318)
  expect(pane.height).toBeGreaterThanOrEqual(170)
  expect((await box(inspector(page))).width).toBeGreaterThanOrEqual(258)
  expect((await box(sidebar(page))).width).toBeGreaterThanOrEqual(168)
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeInViewport()
})

test('at 1280x800 the State tab shows Fork from here and Replay from here without a scroll', async ({
  page,
}) => {
  await open(page)
  const rows = page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
  for (const count of [2, 3, 4]) {
    await page.keyboard.press('F10')
    await expect(rows).toHaveCount(count)
  }
  await rows.filter({ hasText: 'step 1' }).click()
  await page.getByRole('tab', { name: 'State', exact: true }).click()
  const panel = await box(drawer(page))
  for (const name of ['Fork from here', 'Replay from here']) {
    const button = page.getByRole('button', { name, exact: true })
    await expect(button).toBeVisible()
    const b = await box(button)
    expect(inside(b, panel), `${name} ${JSON.stringify(b)} in ${JSON.stringify(panel)}`).toBe(true)
  }
  const update = await box(page.getByLabel('State update'))
  expect(update.height).toBeGreaterThanOrEqual(60)
})

test('at 1280x800 the Interrupt tab shows what is asked, the reply and every answer button without a scroll', async ({
  page,
}) => {
  await open(page)
  await page.getByRole('button', { name: 'New graph from template human approval gate' }).click()
  await expect(page.getByRole('heading', { level: 1, name: /human approval gate/ })).toBeAttached()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'waiting')
  await page.getByRole('tab', { name: 'Interrupt', exact: true }).click()
  const panel = await box(drawer(page))
  const shown = [
    page.getByLabel('What review asks'),
    page.getByRole('textbox', { name: 'Reply' }),
    ...['Resume', 'Approve', 'Reject', 'Edit', 'Edit state first'].map((name) =>
      page.getByRole('button', { name, exact: true }),
    ),
  ]
  for (const item of shown) {
    await expect(item).toBeVisible()
    const b = await box(item)
    expect(inside(b, panel), `${item} ${JSON.stringify(b)} in ${JSON.stringify(panel)}`).toBe(true)
  }
})

test('the code editor takes the window or the drawer, and Escape brings it back', async ({
  page,
}) => {
  await open(page)
  await node(page, 'inc').click()
  const code = page.getByRole('textbox', { name: 'Code of inc' })
  await expect(page.locator('.monaco-editor').filter({ has: code })).toBeVisible({
    timeout: 15_000,
  })
  const small = await box(page.locator('.code-editor').filter({ has: code }))

  await page.getByRole('button', { name: 'Maximise Code of inc' }).click()
  const frame = page.locator('.code-frame').filter({ has: code })
  await expect.poll(async () => (await box(frame)).width).toBe(1280)
  const big = await box(page.locator('.code-editor').filter({ has: code }))
  expect(big.width).toBeGreaterThan(1200)
  expect(big.height).toBeGreaterThan(700)
  // Typing goes on in the big editor; Escape returns with the text kept.
  await expect(code).toBeFocused()
  await page.keyboard.press('End')
  await page.keyboard.type(' // big')
  await page.keyboard.press('Escape')
  await expect
    .poll(async () => (await box(page.locator('.code-editor').filter({ has: code }))).width)
    .toBeLessThan(small.width + 2)
  await expect(page.locator('.monaco-editor').filter({ has: code })).toContainText('// big')

  // The key: Alt+Enter in the editor fills the window, Escape returns.
  await code.focus()
  await page.keyboard.press('Alt+Enter')
  await expect.poll(async () => (await box(frame)).height).toBe(800)
  await page.keyboard.press('Escape')
  await expect.poll(async () => (await box(frame)).height).toBeLessThan(300)

  // The drawer: the editor covers the run drawer's panel exactly.
  await page.getByRole('button', { name: 'Code of inc in the run drawer' }).click()
  const room = await box(page.locator('#ss-drawer'))
  await expect.poll(async () => (await box(frame)).y).toBeCloseTo(room.y, 0)
  const over = await box(frame)
  expect(Math.abs(over.height - room.height)).toBeLessThan(2)
  expect(Math.abs(over.width - room.width)).toBeLessThan(2)
  await page.keyboard.press('Escape')
  await expect.poll(async () => (await box(frame)).y).toBeLessThan(room.y - 100)
})

test('the mini map is shown on request and never covers a node; Fit view keeps START and END in', async ({
  page,
}) => {
  await open(page)
  // A wider graph: the ReAct template.
  await page
    .getByRole('button', { name: 'New graph from template ReAct agent with a scripted model' })
    .click()
  await expect(node(page, 'tools')).toBeVisible()
  await expect(page.getByRole('img', { name: 'Mini map' })).toHaveCount(0)
  await expectEndsInView(page, 16)

  const mapButton = page.getByRole('button', { name: 'Mini map', exact: true })
  await mapButton.click()
  await expect(mapButton).toHaveAttribute('aria-pressed', 'true')
  const map = page.locator('.react-flow__minimap')
  await expect(map).toBeVisible()
  const mapBox = await box(map)
  expect(mapBox.width).toBeLessThanOrEqual(200)
  await expect
    .poll(async () => {
      const hits: string[] = []
      for (const n of await page.locator('.react-flow__node').all())
        if (overlaps(await box(n), await box(map))) hits.push((await n.getAttribute('data-id'))!)
      return hits
    })
    .toEqual([])
  await expectEndsInView(page, 16)

  // Auto layout (top to bottom: the tallest case) and Fit view keep the ends in view too.
  await page.getByRole('button', { name: 'Top to bottom', exact: true }).click()
  await page.getByRole('button', { name: 'Auto layout', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeEnabled()
  await expect
    .poll(async () => inside(await box(node(page, '__end__')), await box(canvas(page)), 16))
    .toBe(true)
  await expectEndsInView(page, 16)
  await page.reload()
  await expect(page.locator('.react-flow__minimap')).toBeVisible() // the choice is kept
})

test('a window resize fits the view again, unless the user moved it', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 })
  await open(page)
  await page
    .getByRole('button', { name: 'New graph from template ReAct agent with a scripted model' })
    .click()
  await expect(node(page, 'tools')).toBeVisible()
  await expectEndsInView(page, 16)
  await page.setViewportSize({ width: 1280, height: 800 })
  await expect
    .poll(async () => inside(await box(node(page, '__end__')), await box(canvas(page)), 16))
    .toBe(true)
  await expectEndsInView(page, 16)

  // Zoomed by the user: a resize leaves the view alone.
  const viewport = page.locator('.react-flow__viewport')
  await page.getByRole('button', { name: 'Zoom In' }).click()
  await page.waitForTimeout(300)
  const zoomed = await viewport.getAttribute('style')
  await page.setViewportSize({ width: 1400, height: 860 })
  await page.waitForTimeout(500)
  expect(await viewport.getAttribute('style')).toBe(zoomed)
})

test('the problems count opens the list; each problem is printed once; a click selects its culprit', async ({
  page,
}) => {
  await open(page)
  const count = page.getByRole('banner').getByRole('button', { name: /^Problems: / })
  await expect(count).toHaveAccessibleName('Problems: 0')
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  await expect(node(page, 'node_1')).toBeVisible()
  await expect(count).not.toHaveAccessibleName('Problems: 0')
  const n = Number((await count.getAttribute('aria-label'))!.split(': ')[1])
  const list = page.locator('#problems-list')
  await expect(list.getByRole('listitem')).toHaveCount(n)

  // Once each: the message is the button's; the detail line says where, not the message again.
  for (const item of await list.getByRole('listitem').all()) {
    const message = (await item.getByRole('button').innerText()).replace(/^(error|warning)\s+/, '')
    const text = await item.innerText()
    expect(text.split(message).length - 1, text).toBe(1)
  }

  // From a collapsed sidebar: the count opens it and focuses the first problem.
  await toggle(page, 'Sidebar').click()
  await expect(sidebar(page)).toBeHidden()
  await count.click()
  await expect(sidebar(page)).toBeVisible()
  const first = list.getByRole('button').first()
  await expect(first).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(node(page, 'node_1')).toHaveClass(/selected/)
  await expect(inspector(page).getByLabel('Node id')).toHaveValue('node_1')
})

test('at 1280x800 the toolbars hold one line and a status appearing moves nothing', async ({
  page,
}) => {
  await open(page)
  const oneLine = async (locator: Locator) => {
    const tops = await locator.evaluate((el) =>
      [...el.querySelectorAll('button, select, input:not([type=file]):not([hidden])')]
        .filter((c) => (c as HTMLElement).offsetParent !== null)
        .map((c) =>
          Math.round(c.getBoundingClientRect().top + c.getBoundingClientRect().height / 2),
        ),
    )
    expect(tops.length).toBeGreaterThan(3)
    expect(Math.max(...tops) - Math.min(...tops), `centres ${tops.join(',')}`).toBeLessThanOrEqual(
      2,
    )
  }
  const banner = page.getByRole('banner')
  expect((await box(banner)).height).toBeLessThan(50)
  await oneLine(banner)
  await oneLine(page.getByRole('toolbar', { name: 'Canvas tools' }))
  // A library graph with a long name (a choice of Add subgraph) leaves the tools in view.
  const openGraph = page
    .getByRole('combobox', { name: 'Graph', exact: true })
    .locator('option:checked')
  await page
    .getByRole('button', { name: 'New graph from template ReAct agent with a scripted model' })
    .click()
  await expect(openGraph).toHaveText('ReAct agent with a scripted model')
  await page
    .getByRole('navigation', { name: 'Graphs and problems' })
    .getByRole('button', { name: /^counter/ })
    .click()
  await expect(openGraph).toHaveText('counter')
  await expect(node(page, 'inc')).toBeVisible()
  const tools = page.getByRole('toolbar', { name: 'Canvas tools' })
  await oneLine(tools)
  const canvas = await box(page.getByRole('main', { name: 'Canvas' }))
  const right = await box(tools.getByRole('button', { name: 'Group' }))
  expect(right.x + right.width).toBeLessThanOrEqual(canvas.x + canvas.width)
  // Every tool whole: none cut at the toolbar's own edge (its scroller) with room to spare.
  for (const name of ['Add node', 'Auto layout', 'Fit view', 'Join', 'Group'])
    await expect(tools.getByRole('button', { name, exact: true })).toBeInViewport({ ratio: 1 })
  const threadRow = page.locator('.drawer-bar')
  await oneLine(threadRow)
  for (const name of ['Stop', 'Import thread'])
    await expect(page.getByRole('button', { name, exact: true })).toBeInViewport({ ratio: 1 })
  await expect(page.getByLabel('Allow network')).toBeInViewport({ ratio: 1 })

  // Step: the status changes ("paused", a message), the graph saves; nothing moves.
  const watched = [
    page.getByRole('button', { name: 'Step', exact: true }),
    page.getByRole('button', { name: 'Undo', exact: true }),
    page.getByRole('button', { name: 'Import thread', exact: true }),
    page.getByLabel('Allow network'),
  ]
  const before = await Promise.all(watched.map(box))
  const step = page.getByRole('button', { name: 'Step', exact: true })
  await step.click()
  await expect(page.locator('.checkpoints li').first()).toBeVisible()
  await expect(step).toBeEnabled()
  await step.click()
  await expect(step).toBeEnabled()
  const after = await Promise.all(watched.map(box))
  for (let i = 0; i < watched.length; i++) {
    expect(after[i]!.x).toBeCloseTo(before[i]!.x, 0)
    expect(after[i]!.y).toBeCloseTo(before[i]!.y, 0)
  }
  await oneLine(banner)
  await oneLine(threadRow)
})

test('edges stand out from the canvas in dark mode (at least 3:1)', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await open(page)
  const ratio = await page.evaluate(() => {
    const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number)
    const lum = (css: string) => {
      const [r, g, b] = rgb(css).map((v) => {
        const c = v / 255
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
      })
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
    }
    const path = document.querySelector('.react-flow__edge-path')!
    const pane = document.querySelector('.react-flow')!
    let bg = getComputedStyle(pane).backgroundColor
    if (bg === 'rgba(0, 0, 0, 0)') bg = getComputedStyle(document.body).backgroundColor
    const [a, b] = [lum(getComputedStyle(path).stroke), lum(bg)]
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
  })
  expect(ratio).toBeGreaterThanOrEqual(3)
})

test('the first-run hint says to press F10, and once dismissed it stays away', async ({ page }) => {
  await open(page)
  const hint = page.getByRole('note', { name: 'Getting started' })
  await expect(hint).toContainText('F10')
  await hint.getByRole('button', { name: 'Dismiss the hint' }).click()
  await expect(hint).toBeHidden()
  await page.reload()
  await expect(node(page, 'inc')).toBeVisible()
  await expect(hint).toBeHidden()
})

test('the hint goes once the user has stepped', async ({ page }) => {
  await open(page)
  const hint = page.getByRole('note', { name: 'Getting started' })
  await expect(hint).toBeVisible()
  await page.keyboard.press('F10')
  await expect(hint).toBeHidden()
  await page.reload()
  await expect(node(page, 'inc')).toBeVisible()
  await expect(hint).toBeHidden()
})

test('the hint stands aside while a node is selected, and comes back when nothing is', async ({
  page,
}) => {
  await open(page)
  const hint = page.getByRole('note', { name: 'Getting started' })
  await expect(hint).toBeVisible()
  await node(page, 'inc').click()
  await expect(hint).toBeHidden()
  await page.keyboard.press('Escape')
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(0)
  await expect(hint).toBeVisible()
})
