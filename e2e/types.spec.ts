import { readFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { importGraph } from './graphFiles'

/**
 * Typed state fields, as a user meets them: a type chosen in the schema editor with the
 * keyboard, a default that does not fit flagged on its field, undone; the run's input as a
 * form built from the types; a write that does not fit its type warned about in Writes; the
 * TypeScript export typed.
 */

const GRAPH = {
  superstep: 1,
  name: 'typed fields',
  state: [
    { name: 'title' },
    { name: 'count', reducer: 'add', default: 0 },
    { name: 'done' },
    { name: 'chat', reducer: 'add_messages', default: [], type: 'messages' },
  ],
  nodes: [{ id: 'write', code: '(s) => ({ title: s.count * 2, done: s.count > 1 })' }],
  edges: [
    { from: '__start__', to: 'write' },
    { from: 'write', to: '__end__' },
  ],
}

/** Picks an option of a closed select the way a keyboard user does: focus it, type the name. */
async function choose(page: Page, label: string, typed: string, expected: string) {
  const select = page.getByLabel(label, { exact: true })
  await select.focus()
  await page.keyboard.type(typed)
  await expect(select).toHaveValue(expected)
}

const fieldRow = (page: Page, name: string) =>
  page
    .getByRole('table', { name: 'State fields' })
    .getByRole('row')
    .filter({
      has: page.getByRole('textbox', { name: 'Field name' }).and(page.locator(`[value="${name}"]`)),
    })

test('a field type: chosen in the inspector, checked, a form input, a runtime warning, exported', async ({
  page,
}) => {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await importGraph(page, GRAPH)
  await expect(page.getByRole('table', { name: 'State fields' })).toBeVisible()

  // title: a string; count: a string first (its default 0 does not fit), then an integer.
  await choose(page, 'Type of title', 'str', 'string')
  await choose(page, 'Type of count', 'str', 'string')
  const count = fieldRow(page, 'count')
  const problem = count.getByRole('list', { name: 'Problems of count' })
  await expect(problem).toContainText(/default of .count. is number .0., not string/)
  await page.screenshot({ path: 'test-results/types-mismatch.png' })
  // Undo takes the type back, and the problem with it.
  await page.getByRole('button', { name: 'Undo', exact: true }).click()
  await expect(page.getByLabel('Type of count', { exact: true })).toHaveValue('any')
  await expect(problem).toHaveCount(0)
  await choose(page, 'Type of count', 'int', 'integer')
  await expect(problem).toHaveCount(0)
  // done: a list of booleans, then a boolean.
  await choose(page, 'Type of done', 'l', 'array')
  await choose(page, 'Item type of done', 'b', 'boolean')
  await choose(page, 'Type of done', 'b', 'boolean')
  await expect(page.getByLabel('Item type of done', { exact: true })).toHaveCount(0)

  // The input as a form: a text box, a number box, a checkbox.
  await page.getByRole('tab', { name: 'Input', exact: true }).click()
  const title = page.getByLabel('Input title', { exact: true })
  await expect(title).toHaveAttribute('type', 'text')
  await title.click()
  await page.keyboard.type('a "quoted" title')
  const countBox = page.getByLabel('Input count', { exact: true })
  await expect(countBox).toHaveAttribute('type', 'number')
  await countBox.click()
  await page.keyboard.type('2.5')
  await expect(countBox).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('Not an integer.')).toBeVisible()
  await page.keyboard.press('Control+a')
  await page.keyboard.type('3')
  await expect(countBox).not.toHaveAttribute('aria-invalid', 'true')
  const done = page.getByLabel('Input done', { exact: true })
  await expect(done).toHaveAttribute('type', 'checkbox')
  await done.click()
  // A messages field: a message box, one human message.
  const chat = page.getByLabel('Input chat', { exact: true })
  await chat.click()
  await page.keyboard.type('Hello there')
  await page.getByRole('button', { name: 'JSON', exact: true }).click()
  await expect(page.getByLabel('Input JSON')).toHaveValue(
    JSON.stringify({
      title: 'a "quoted" title',
      count: 3,
      done: true,
      chat: [{ type: 'human', content: 'Hello there' }],
    }),
  )
  await page.getByRole('button', { name: 'Form', exact: true }).click()
  await expect(title).toHaveValue('a "quoted" title')
  await expect(chat).toHaveValue('Hello there')
  await page.setViewportSize({ width: 1920, height: 1080 })
  await page.screenshot({ path: 'test-results/types-input-1920.png' })
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.screenshot({ path: 'test-results/types-input.png' })

  // The node writes a number to the string field: a runtime warning in Writes.
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
  await page.getByRole('tab', { name: /^Writes/ }).click()
  const warnings = page.getByRole('region', { name: 'Runtime warnings' })
  await expect(warnings).toContainText('VALUE_TYPE_MISMATCH')
  await expect(warnings).toContainText(/wrote number .6. to .title., which is typed string/)
  await page.screenshot({ path: 'test-results/types-warning.png' })

  // The TypeScript export types the fields.
  await page.keyboard.press('Control+e')
  const dialog = page.getByRole('dialog', { name: 'Export' })
  const ts = dialog.getByRole('region', { name: 'LangGraph.js (TypeScript)' })
  await expect(ts.locator('.monaco-editor .view-lines')).toContainText(
    'title: Annotation<string>()',
    {
      timeout: 15_000,
    },
  )
  await expect(ts.locator('.monaco-editor .view-lines')).toContainText('count: Annotation<number>(')
  // The Python module (its State is below the fold of the editor): real annotations.
  const download = page.waitForEvent('download')
  await dialog.getByRole('button', { name: 'Download Python' }).click()
  const python = await readFile(await (await download).path(), 'utf8')
  expect(python).toContain('    title: str\n')
  expect(python).toContain('    count: Annotated[int, _add]')
  expect(python).toContain('    done: bool\n')
  expect(python).toContain('    chat: Annotated[list[AnyMessage], add_messages]')
  expect(errors).toEqual([])
})
