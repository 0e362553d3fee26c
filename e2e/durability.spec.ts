import { expect, test } from '@playwright/test'
import { nodeCodeLines } from './graphFiles'
import { storedNodeCode } from './storedRows'

/** Nothing typed is lost: steady typing is saved as it goes, and the indicator tells the truth. */

test.beforeEach(async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
})

test('steady typing is saved while it goes on, and "Saved" waits for what is on screen', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  const lines = await nodeCodeLines(page, 'node_1')
  await expect(lines).toContainText('(state)')
  await lines.click()
  await page.keyboard.press('ControlOrMeta+End')
  const indicator = page.getByLabel('Save state')
  // 60 keys, one every 60 ms: the debounce (300 ms) never gets its pause.
  const typed = ' // ' + 'abcdefghij'.repeat(6).slice(0, 56)
  for (const [i, ch] of [...typed].entries()) {
    await page.keyboard.type(ch)
    // A keystroke just typed waits for its commit: the page does not say "Saved".
    if (i === 0) expect(await indicator.textContent()).toBe('Saving…')
    await page.waitForTimeout(60)
  }
  // Typing never paused, yet most of it is in IndexedDB already (at most ~1 s behind).
  const saved = (await storedNodeCode(page, 'node_1')) ?? ''
  expect(`(state) => ({})${typed}`.startsWith(saved), saved).toBe(true)
  expect(saved.length).toBeGreaterThan('(state) => ({})'.length + 20)
  // Once typing stops, everything is saved and the indicator says so.
  await expect(indicator).toHaveText('Saved')
  expect(await storedNodeCode(page, 'node_1')).toBe(`(state) => ({})${typed}`)
})
