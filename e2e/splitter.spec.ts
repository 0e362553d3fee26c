import { expect, test, type Locator, type Page } from '@playwright/test'

/**
 * The panels' separators (src/ui/layout/useSplit.ts) beyond layout.spec's drag, keys and
 * reload: a layout saved by react-resizable-panels (which they replaced) still opens as it was,
 * a double click puts a panel back to its default size, a drag far enough collapses a panel
 * and a drag back opens it, a window resize keeps the side panels' widths, and each
 * separator tells assistive technology what it controls and where it stands.
 */

const separator = (page: Page, name: string) => page.getByRole('separator', { name, exact: true })
const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Graphs and problems' })
const inspector = (page: Page) => page.getByRole('complementary', { name: 'Inspector' })
const toggle = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Panels' }).getByRole('button', { name, exact: true })
const width = async (l: Locator) => (await l.boundingBox())?.width ?? 0

async function open(page: Page) {
  await page.goto('/')
  await expect(page.locator('.react-flow__node[data-id="inc"]')).toBeVisible()
}

async function drag(page: Page, handle: Locator, dx: number) {
  const b = (await handle.boundingBox())!
  const x = b.x + b.width / 2
  const y = b.y + b.height / 2
  await page.mouse.move(x, y)
  await page.mouse.down()
  for (let i = 1; i <= 10; i++) await page.mouse.move(x + (dx * i) / 10, y)
  await page.mouse.up()
}

test("a layout saved by react-resizable-panels opens as it was, and is saved back in the library's format", async ({
  page,
}) => {
  await page.addInitScript(() => {
    if (sessionStorage.getItem('seeded')) return
    sessionStorage.setItem('seeded', '1')
    localStorage.setItem(
      'react-resizable-panels:superstep-columns',
      '{"ss-sidebar":25,"ss-canvas":45,"ss-inspector":30}',
    )
    localStorage.setItem('react-resizable-panels:superstep-rows', '{"ss-work":50,"ss-drawer":50}')
  })
  await open(page)
  expect(Math.abs((await width(page.locator('#ss-sidebar'))) - 320)).toBeLessThan(3)
  expect(Math.abs((await width(page.locator('#ss-inspector'))) - 384)).toBeLessThan(3)
  await expect(separator(page, 'Inspector')).toHaveAttribute('aria-valuenow', '30')
  await separator(page, 'Inspector').focus()
  await page.keyboard.press('ArrowRight')
  await expect(separator(page, 'Inspector')).toHaveAttribute('aria-valuenow', '25')
  await expect
    .poll(() =>
      page.evaluate(() => localStorage.getItem('react-resizable-panels:superstep-columns')),
    )
    .toBe('{"ss-sidebar":25,"ss-canvas":50,"ss-inspector":25}')
})

test('a double click puts a panel back to its default size', async ({ page }) => {
  await open(page)
  const start = await width(inspector(page))
  await drag(page, separator(page, 'Inspector'), -150)
  await expect.poll(() => width(inspector(page))).toBeGreaterThan(start + 120)
  await separator(page, 'Inspector').dblclick()
  await expect.poll(async () => Math.abs((await width(inspector(page))) - start)).toBeLessThan(3)
  await expect(separator(page, 'Inspector')).toHaveAttribute('aria-valuenow', '24')
})

test('dragged past half its minimum a panel collapses; dragged back it opens', async ({ page }) => {
  await open(page)
  await drag(page, separator(page, 'Sidebar'), -200)
  await expect(sidebar(page)).toBeHidden()
  await expect(toggle(page, 'Sidebar')).toHaveAttribute('aria-pressed', 'false')
  await expect(separator(page, 'Sidebar')).toHaveAttribute('aria-valuenow', '0')
  // Less than half its minimum (170 px) out: still collapsed; more: open at its minimum or more.
  await drag(page, separator(page, 'Sidebar'), 60)
  await expect(sidebar(page)).toBeHidden()
  await drag(page, separator(page, 'Sidebar'), 120)
  await expect(sidebar(page)).toBeVisible()
  expect(await width(sidebar(page))).toBeGreaterThanOrEqual(168)
  await expect(toggle(page, 'Sidebar')).toHaveAttribute('aria-pressed', 'true')
})

test('a window resize keeps the side panels as wide as they were; the canvas takes the change', async ({
  page,
}) => {
  await open(page)
  const side = await width(sidebar(page))
  const right = await width(inspector(page))
  await page.setViewportSize({ width: 1600, height: 900 })
  await expect
    .poll(async () =>
      Math.abs((await width(page.locator('#ss-canvas'))) - (1600 - side - right - 2)),
    )
    .toBeLessThan(3)
  expect(Math.abs((await width(sidebar(page))) - side)).toBeLessThan(3)
  expect(Math.abs((await width(inspector(page))) - right)).toBeLessThan(3)
})

test('each separator names the panel it controls and says its size and range', async ({ page }) => {
  await open(page)
  const cases = [
    ['Sidebar', 'ss-sidebar', 'vertical'],
    ['Inspector', 'ss-inspector', 'vertical'],
    ['Run drawer', 'ss-drawer', 'horizontal'],
    ['Timeline', 'ss-timeline', 'vertical'],
  ] as const
  for (const [name, panel, orientation] of cases) {
    const s = separator(page, name)
    await expect(s).toHaveAttribute('aria-controls', panel)
    await expect(s).toHaveAttribute('aria-orientation', orientation)
    await expect(s).toHaveAttribute('tabindex', '0')
    const value = async (a: string) => Number(await s.getAttribute(a))
    const [now, min, max] = [
      await value('aria-valuenow'),
      await value('aria-valuemin'),
      await value('aria-valuemax'),
    ]
    expect(min).toBeLessThanOrEqual(now)
    expect(now).toBeLessThanOrEqual(max)
    expect(max).toBeLessThanOrEqual(100)
  }
  // The Timeline does not collapse: its least size is its minimum, not 0.
  expect(Number(await separator(page, 'Timeline').getAttribute('aria-valuemin'))).toBeGreaterThan(0)
})
