import { expect, test, type Page } from '@playwright/test'

/**
 * The inspector in real Chromium, on the built app: inspector-test.html renders it over a
 * local document (edits applied with applyEdit) and exposes `window.__inspector` (its type
 * is declared in src/ui/inspector/testPage.tsx).
 */

const MONACO_CHUNK = /MonacoCodeEditor|editor\.api|ts\.worker|editor\.worker/

async function open(page: Page) {
  const requests: string[] = []
  const errors: string[] = []
  page.on('request', (r) => requests.push(r.url()))
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto('/inspector-test.html')
  await expect(page.getByRole('table', { name: 'State fields' })).toBeVisible()
  return { requests, errors }
}

const doc = (page: Page) => page.evaluate(() => window.__inspector.doc())
const edits = (page: Page) => page.evaluate(() => window.__inspector.edits)

/** The Monaco editor named `label`, after its lazy chunk has arrived. */
async function monacoEditor(page: Page, label: string) {
  const editor = page
    .locator('.monaco-editor')
    .filter({ has: page.getByRole('textbox', { name: label }) })
  await expect(editor).toBeVisible({ timeout: 15_000 })
  return editor
}

/** Replaces the editor's text with `code`, as if pasted. */
async function replaceCode(page: Page, label: string, code: string) {
  const editor = await monacoEditor(page, label)
  await editor.locator('.view-lines').click()
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.insertText(code)
  // Drop what auto-closing brackets may have added after the cursor.
  await page.keyboard.press('Shift+ControlOrMeta+End')
  await page.keyboard.press('Delete')
  await expect(editor.locator('.view-lines')).toHaveText(code.replace(/ /g, '\u00a0'))
  return editor
}

test('the schema table lists the fields; a reducer change updates its preview', async ({
  page,
}) => {
  const { errors } = await open(page)
  const table = page.getByRole('table', { name: 'State fields' })
  const names = table.getByRole('textbox', { name: 'Field name', exact: true })
  await expect(names).toHaveCount(4)
  expect(await names.evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual([
    'count',
    'log',
    'messages',
    'answer',
  ])
  // One header row plus one row per field, each a row of cells.
  await expect(table.getByRole('row')).toHaveCount(5)
  await expect(table.getByRole('columnheader', { name: 'Default' })).toHaveCount(1)

  const preview = page.getByRole('status', { name: 'Preview of count' })
  await expect(preview).toHaveText('1 + 2 → 3')
  await page.getByRole('combobox', { name: 'Reducer of count' }).selectOption('union')
  await expect(preview).toHaveText('[1, 2] ∪ [2, 3] → [1, 2, 3]')
  expect((await doc(page)).state[0]).toMatchObject({ name: 'count', reducer: 'union' })

  await page.getByRole('combobox', { name: 'Reducer of count' }).selectOption('overwrite')
  await expect(preview).toHaveText('1, 2 → InvalidUpdateError')
  await expect(preview).toHaveAttribute('title', /^One write per super-step/)
  // The channel's design, not a fault of the graph: not drawn as an error.
  await expect(preview.locator('xpath=..')).not.toHaveClass(/preview-error/)

  await page.getByRole('combobox', { name: 'Reducer of count' }).selectOption('topic')
  await expect(preview).toHaveText('1, 2 → [1, 2], then 3 → [3]')
  await page.getByRole('checkbox', { name: 'Accumulate count' }).check()
  await expect(preview).toHaveText('1, 2 → [1, 2], then 3 → [1, 2, 3]')
  expect((await doc(page)).state[0]).toEqual({
    name: 'count',
    channel: 'topic',
    accumulate: true,
    default: 0,
  })

  await page.getByRole('button', { name: 'Add field' }).click()
  await expect(names).toHaveCount(5)
  await expect(names.nth(4)).toHaveValue('field')
  await expect(names.nth(4)).toBeFocused()
  // Its name comes selected: what is typed replaces it.
  await page.keyboard.type('notes')
  await page.keyboard.press('Enter')
  expect((await doc(page)).state.map((f) => f.name)).toEqual([
    'count',
    'log',
    'messages',
    'answer',
    'notes',
  ])
  await table.getByRole('row').nth(5).getByRole('button', { name: 'Delete field' }).click()
  await expect(names).toHaveCount(4)
  expect(errors).toEqual([])
})

test('an invalid default shows an error and emits nothing; a valid one is applied', async ({
  page,
}) => {
  const { errors } = await open(page)
  const input = page.getByRole('textbox', { name: 'Default of log' })
  await expect(input).toHaveValue('[]')
  await input.fill('')
  await input.pressSequentially('[1, 2', { delay: 20 })
  await expect(input).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText(/^Invalid JSON:/)).toBeVisible()
  // Blank was valid ("no default"); nothing has been emitted since.
  const before = (await edits(page)).filter((e) => e.type === 'updateField')
  expect(before).toEqual([{ type: 'updateField', name: 'log', patch: { default: undefined } }])
  expect((await doc(page)).state[1]).toEqual({ name: 'log', reducer: 'append' })

  await input.press('End')
  await input.pressSequentially(']')
  await expect(page.getByText(/^Invalid JSON:/)).toHaveCount(0)
  await expect(input).not.toHaveAttribute('aria-invalid')
  await expect(input).toHaveValue('[1, 2]') // as typed, not re-formatted under the cursor
  expect((await doc(page)).state[1]).toEqual({ name: 'log', reducer: 'append', default: [1, 2] })
  expect(errors).toEqual([])
})

test('a selected node shows its code in Monaco: syntax errors marked, state. completes', async ({
  page,
}) => {
  const { requests, errors } = await open(page)
  // Lazy load: nothing of Monaco before an editor is shown.
  expect(requests.filter((u) => MONACO_CHUNK.test(u))).toEqual([])

  await page.getByRole('button', { name: 'Select node inc' }).click()
  // The plain textarea is there at once and already shows the code.
  await expect(page.getByRole('textbox', { name: 'Code of inc' })).toHaveValue(
    /count: 1, log: \["inc"\]/,
  )
  const editor = await monacoEditor(page, 'Code of inc')
  await expect(editor.locator('.view-lines')).toContainText('count: 1')
  expect(requests.some((u) => /MonacoCodeEditor/.test(u))).toBe(true)

  await replaceCode(page, 'Code of inc', '(state) => ({ count: 1 + })')
  await expect(editor.locator('.squiggly-error')).toHaveCount(1, { timeout: 10_000 })
  // Debounced setNodeCode: the document follows, and the validator's issue is listed.
  await expect
    .poll(async () => (await doc(page)).nodes[0]?.code)
    .toBe('(state) => ({ count: 1 + })')
  await expect(page.getByRole('list', { name: 'Problems of inc' })).toContainText(
    'Unexpected token',
  )

  await replaceCode(page, 'Code of inc', 'function (state) { return { count: 1 } }')
  await expect(editor.locator('.squiggly-error')).toHaveCount(0, { timeout: 10_000 })

  await replaceCode(page, 'Code of inc', '(state) => state')
  await page.keyboard.type('.')
  const suggest = page.locator('.suggest-widget')
  await expect(suggest).toBeVisible({ timeout: 10_000 })
  await expect(suggest.locator('.monaco-list-row')).toContainText(['count', 'log', 'messages'], {
    timeout: 10_000,
  })
  await expect(suggest).not.toContainText('NodeFn')
  await page.keyboard.press('Escape')

  // The typings follow the schema: a field added now completes too.
  await page.getByRole('button', { name: 'Select nothing' }).click()
  await page.getByRole('combobox', { name: 'Reducer of answer' }).selectOption('add_messages')
  await page.getByRole('button', { name: 'Select node inc' }).click()
  await replaceCode(page, 'Code of inc', '(state) => state.answer[0]')
  await page.keyboard.type('.')
  await expect(suggest.locator('.monaco-list-row').first()).toBeVisible({ timeout: 10_000 })
  await expect(suggest).toContainText('content')
  await expect(suggest).toContainText('tool_calls')

  // A burst of typing is one setNodeCode; a blur commits what is pending at once.
  const codeEdits = async () => (await edits(page)).filter((e) => e.type === 'setNodeCode').length
  const before = await codeEdits()
  await page.keyboard.press('Escape')
  await page.keyboard.press('End')
  await page.keyboard.press('Backspace')
  await page.keyboard.type(' + 1 + 2', { delay: 30 })
  await expect
    .poll(async () => (await doc(page)).nodes[0]?.code)
    .toBe('(state) => state.answer[0] + 1 + 2')
  // Nine keys, one edit: a stall of a busy machine between two keys may split the burst
  // in two, but never into one edit per key.
  const burst = (await codeEdits()) - before
  expect(burst).toBeGreaterThanOrEqual(1)
  expect(burst).toBeLessThanOrEqual(2)
  await page.waitForTimeout(500)
  expect(await codeEdits()).toBe(before + burst)
  await page.keyboard.type(' + 3', { delay: 30 })
  await page.getByRole('button', { name: 'Select nothing' }).click()
  expect((await doc(page)).nodes[0]?.code).toBe('(state) => state.answer[0] + 1 + 2 + 3')

  const origin = new URL(page.url()).origin
  const foreign = requests.filter((u) => !u.startsWith(origin) && !/^(data|blob):/.test(u))
  expect(foreign).toEqual([])
  expect(errors).toEqual([])
})

test('node id, ends and breakpoints; a branch path; all as edits', async ({ page }) => {
  const { errors } = await open(page)
  await page.getByRole('button', { name: 'Select node inc' }).click()
  await page.getByRole('checkbox', { name: 'Pause before' }).check()
  await page.getByRole('combobox', { name: 'Add end' }).selectOption('done')
  const id = page.getByRole('textbox', { name: 'Node id' })
  await id.fill('done')
  await expect(page.getByText('A node is already called done.')).toBeVisible()
  await id.fill('step')
  await id.press('Enter')
  await expect(page.getByRole('textbox', { name: 'Code of step' })).toBeVisible()
  let d = await doc(page)
  expect(d.interruptBefore).toEqual(['step'])
  expect(d.nodes[0]).toMatchObject({ id: 'step', ends: ['done'] })

  await page.getByRole('button', { name: 'Select branch path' }).click()
  await expect(page.getByRole('heading', { name: 'Conditional edge from step' })).toBeVisible()
  await page.getByRole('combobox', { name: 'Target of path again' }).selectOption('__end__')
  await page.getByRole('button', { name: 'Add path' }).click()
  await page.getByRole('button', { name: 'Delete path stop' }).click()
  d = await doc(page)
  expect(d.branches?.[0]?.paths).toEqual({ again: '__end__', path1: '__end__' })
  const types = (await edits(page)).map((e) => e.type)
  expect(types).toEqual([
    'setBreakpoint',
    'setNodeEnds',
    'renameNode',
    'setBranchPath',
    'setBranchPath',
    'deleteBranchPath',
  ])
  expect(errors).toEqual([])
})

test('the initial JS of the page holds no Monaco', async ({ page, request }) => {
  await open(page)
  const html = await (await request.get('/inspector-test.html')).text()
  const scripts = [
    ...html.matchAll(/<(?:script[^>]*src|link[^>]*modulepreload[^>]*href)="([^"]+)"/g),
  ].map((m) => m[1] ?? '')
  expect(scripts.length).toBeGreaterThan(0)
  let bytes = 0
  for (const src of scripts) {
    const body = await (await request.get(src)).text()
    bytes += body.length
    expect(body, src).not.toContain('MonacoEnvironment')
    expect(body, src).not.toContain('monaco-editor')
  }
  console.log(
    `inspector-test.html initial JS: ${scripts.length} files, ${(bytes / 1024).toFixed(0)} kB`,
  )
})
