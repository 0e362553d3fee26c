import { expect, test, type Locator, type Page } from '@playwright/test'

/**
 * The run drawer's Enlarge button: a long conversation or a wide diff gets most of the window
 * in one click, the same button puts the drawer back to its size, and a reload keeps either.
 */

const drawer = (page: Page) => page.getByRole('region', { name: 'Run', exact: true })
const enlarge = (page: Page) => page.getByRole('button', { name: 'Enlarge the run drawer' })
const height = async (l: Locator) => (await l.boundingBox())?.height ?? 0

test('Enlarge grows the run drawer, the same button restores it, and a reload keeps it', async ({
  page,
}) => {
  await page.goto('/')
  await expect(page.locator('.react-flow__node[data-id="inc"]')).toBeVisible()
  const before = await height(drawer(page))
  await expect(enlarge(page)).toHaveAttribute('aria-pressed', 'false')

  await enlarge(page).click()
  await expect(enlarge(page)).toHaveAttribute('aria-pressed', 'true')
  await expect.poll(() => height(drawer(page))).toBeGreaterThan(before * 1.8)
  const large = await height(drawer(page))
  // The canvas keeps a usable strip above it.
  const canvas = await page.getByRole('main', { name: 'Canvas' }).boundingBox()
  expect(canvas?.height ?? 0).toBeGreaterThanOrEqual(150)

  await page.reload()
  await expect(enlarge(page)).toHaveAttribute('aria-pressed', 'true')
  expect(Math.abs((await height(drawer(page))) - large)).toBeLessThan(3)

  await enlarge(page).click()
  await expect(enlarge(page)).toHaveAttribute('aria-pressed', 'false')
  await expect.poll(async () => Math.abs((await height(drawer(page))) - before)).toBeLessThan(3)
})
