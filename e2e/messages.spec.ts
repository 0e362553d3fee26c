import { expect, test, type Page } from '@playwright/test'
import { importGraph } from './graphFiles'

/**
 * Agent graphs you can read: messages drawn as messages wherever the debugger shows a value
 * (Channels, State, Writes, Diff), `console.log(obj)` inspectable in Logs, and no page
 * errors from Monaco's JSON language. On the built app in real Chromium.
 */

const rows = (page: Page) => page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true }).click()
const cell = (page: Page, channel: string) =>
  page.getByRole('table', { name: 'Channels' }).locator(`tr[data-channel="${channel}"] td.value`)
const message = (scope: ReturnType<Page['locator']>, role: string) =>
  scope.locator(`article.msg[data-role="${role}"]`)

/** The run status says done (a word or a phase, whichever the status line shows). */
async function ranToEnd(page: Page) {
  const status = page.getByLabel('Run status')
  await expect
    .poll(async () => (await status.getAttribute('data-phase')) ?? (await status.textContent()))
    .toBe('done')
}

function collectErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`)
  })
  return errors
}

test.beforeEach(async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
})

test('the ReAct agent reads as a conversation in Channels, State, Writes and Diff', async ({
  page,
}) => {
  const errors = collectErrors(page)
  await page
    .getByRole('button', { name: 'New graph from template ReAct agent with a scripted model' })
    .click()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await ranToEnd(page)

  // Channels: four messages by role, not collapsed `{ … }` items.
  await tab(page, 'Channels')
  const messages = cell(page, 'messages')
  await expect(messages.locator('article.msg')).toHaveCount(4)
  const roles = await messages
    .locator('article.msg')
    .evaluateAll((a) => a.map((e) => e.getAttribute('data-role')))
  expect(roles).toEqual(['human', 'ai', 'tool', 'ai'])
  await expect(messages).not.toContainText('{ … }')
  await expect(message(messages, 'human')).toContainText('What is the weather in Paris?')
  await expect(message(messages, 'human')).toHaveAttribute('title', /^id: [0-9a-f-]{36}$/)
  // The tool call as a card: its name, its arguments as JSON, and the result matched by id.
  const card = messages.getByRole('group', { name: 'Tool call get_weather' })
  await expect(card).toContainText('get_weather')
  await expect(card).toContainText('{"city":"Paris"}')
  await expect(card).toHaveAttribute('title', /^tool call id: call_/)
  const result = card.getByRole('group', { name: 'Result of get_weather' })
  await expect(result).toHaveAttribute('data-status', 'success')
  await expect(result).toContainText('"sky":"sunny"')
  // The tool message names the call it answers.
  await expect(message(messages, 'tool')).toContainText('result of get_weather({"city":"Paris"})')
  await expect(message(messages, 'ai').last()).toContainText('It is 18 °C and sunny in Paris.')
  // Raw JSON on demand, and back.
  const raw = messages.getByRole('button', { name: 'Raw JSON' })
  await raw.click()
  await expect(raw).toHaveAttribute('aria-pressed', 'true')
  await expect(messages.locator('article.msg')).toHaveCount(0)
  await expect(messages.locator('.json-tree')).toBeVisible()
  await raw.click()
  await expect(messages.locator('article.msg')).toHaveCount(4)
  const json = JSON.parse((await messages.locator('[data-json]').getAttribute('data-json')) ?? '[]')
  expect(json.map((m: { type: string }) => m.type)).toEqual(['human', 'ai', 'tool', 'ai'])

  // State: the same conversation under its field.
  await tab(page, 'State')
  const state = page.getByRole('region', { name: 'State at this checkpoint' })
  await expect(state.locator('article.msg')).toHaveCount(4)
  await expect(state.getByRole('group', { name: 'Tool call get_weather' })).toBeVisible()

  // Writes of step 2: the tools node wrote a tool message, shown with its call.
  await rows(page).filter({ hasText: 'step 2' }).click()
  await tab(page, 'Writes')
  const writes = page.getByRole('list', { name: 'Task writes' }).locator('li[data-task="tools"]')
  await expect(message(writes, 'tool')).toContainText('result of get_weather({"city":"Paris"})')
  await expect(message(writes, 'tool').locator('[data-status="success"]')).toBeVisible()
  // Writes of step 1: the model's call as a card.
  await rows(page).filter({ hasText: 'step 1' }).click()
  const agent = page.getByRole('list', { name: 'Task writes' }).locator('li[data-task="agent"]')
  await expect(agent.getByRole('group', { name: 'Tool call get_weather' })).toContainText(
    '{"city":"Paris"}',
  )

  // Diff of step 2 against its parent: one message added, by id.
  await rows(page).filter({ hasText: 'step 2' }).click()
  await tab(page, 'Diff')
  const changes = page.getByRole('list', { name: 'State changes' })
  await expect(changes.locator('li[data-message]')).toHaveCount(1)
  const added = changes.locator('li[data-kind="added"][data-message]')
  await expect(message(added, 'tool')).toContainText('result of get_weather')
  // Step 3 against step 1: the tool result and the answer added, nothing else.
  await rows(page).filter({ hasText: 'step 3' }).click()
  const step1 = await rows(page).filter({ hasText: 'step 1' }).getAttribute('data-checkpoint')
  await page.getByLabel('Compare with').selectOption(step1 ?? '')
  await expect(changes.locator('li[data-message]')).toHaveCount(2)
  await expect(changes.locator('> li')).toHaveCount(2)
  await expect(message(changes, 'tool')).toHaveCount(1)
  await expect(message(changes, 'ai')).toContainText('sunny in Paris')

  // A fork that rewrites the answer (same id): Diff shows that message changed, by id.
  await page.getByLabel('Compare with').selectOption('')
  await tab(page, 'Channels')
  const answer = message(cell(page, 'messages'), 'ai').last()
  const id = ((await answer.getAttribute('title')) ?? '').replace(/^id: /, '')
  await tab(page, 'State')
  await page
    .getByLabel('State update')
    .fill(JSON.stringify({ messages: [{ type: 'ai', id, content: 'It is 20 °C in Paris.' }] }))
  await page.getByRole('button', { name: 'Fork from here' }).click()
  await expect(
    page.getByRole('listbox', { name: 'Checkpoints' }).locator('[aria-selected="true"]'),
  ).toHaveAttribute('data-source', 'update')
  await tab(page, 'Diff')
  const changed = changes.locator(`li[data-kind="changed"][data-message="${id}"]`)
  await expect(changed).toHaveCount(1)
  await expect(changed.getByRole('list', { name: /^Changes in message/ })).toContainText(
    '"It is 18 °C and sunny in Paris." → "It is 20 °C in Paris."',
  )
  await expect(message(changed, 'ai')).toContainText('It is 20 °C in Paris.')
  await expect(changes.locator('li[data-kind="added"], li[data-kind="removed"]')).toHaveCount(0)

  await page.screenshot({ path: 'test-results/messages-diff.png' })
  expect(errors).toEqual([])
})

test('console.log(obj) in node code shows the object in Logs and Writes; long conversations stay fast', async ({
  page,
}) => {
  const code = `(s) => {
  const weather = { city: 'Paris', forecast: { days: [18, 21] }, format() {} }
  weather.self = weather
  console.log('weather is', weather)
  console.warn(new RangeError('too hot'))
  const messages = []
  for (let i = 0; i < 300; i++) messages.push({ role: i % 2 ? 'assistant' : 'user', content: 'line ' + i })
  return { messages }
}`
  await importGraph(page, {
    superstep: 1,
    name: 'talkative',
    state: [{ name: 'messages', reducer: 'add_messages', default: [] }],
    nodes: [{ id: 'talk', code, position: { x: 200, y: 0 } }],
    edges: [
      { from: '__start__', to: 'talk' },
      { from: 'talk', to: '__end__' },
    ],
    branches: [],
  } as { name: string })
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await ranToEnd(page)

  // Logs: the object by its fields (a function and a cycle named), the Error by its message.
  await tab(page, 'Logs')
  const logs = page.getByRole('list', { name: 'Logs' })
  await expect(logs).toContainText('weather is')
  const logged = logs.locator('li').first().locator('[data-json]')
  const fields = JSON.parse((await logged.getAttribute('data-json')) ?? 'null')
  expect(fields).toEqual({
    city: 'Paris',
    forecast: { days: [18, 21] },
    format: '[Function format]',
    self: '[Circular]',
  })
  await expect(logs.locator('li').first()).toContainText('city')
  await expect(logs).toContainText('RangeError: too hot')
  await expect(logs.locator('li.warn')).toHaveCount(1)
  await expect(logs).not.toContainText('[object Object]')
  // The object opens like a console's.
  const closed = logs.locator('li').first().getByRole('treeitem', { expanded: false }).first()
  await closed.getByRole('button').first().click()
  await expect(logs.locator('li').first()).toContainText('days')

  // The same lines under the task in Writes.
  await rows(page).filter({ hasText: 'step 1' }).click()
  await tab(page, 'Writes')
  const taskLogs = page.getByRole('list', { name: 'Logs of talk' })
  await expect(taskLogs).toContainText('weather is')
  await expect(taskLogs).toContainText('RangeError: too hot')
  await expect(taskLogs).not.toContainText('[object Object]')

  // 300 messages: drawn a screenful at a time, opened at the end, scrollable to the start.
  await tab(page, 'Channels')
  const messages = cell(page, 'messages')
  await expect(messages).toContainText('300 messages')
  await expect(messages.locator('article.msg').last()).toContainText('line 299')
  expect(await messages.locator('article.msg').count()).toBeLessThan(60)
  const scroller = messages.getByRole('group', { name: '300 messages, scrollable' })
  await scroller.hover()
  await scroller.evaluate((e) => (e.scrollTop = 0))
  await expect(messages.locator('article.msg').first()).toContainText('line 0')
  await expect(message(messages, 'human').first()).toBeVisible()
  await expect(message(messages, 'ai').first()).toBeVisible()
})

test('Monaco JSON has its worker: no page errors when the Export dialog opens or a graph is imported', async ({
  page,
}) => {
  const errors = collectErrors(page)
  await page.getByRole('button', { name: 'Export', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.locator('.monaco-editor').first()).toBeVisible()
  // The JSON model is validated by its worker (a folding range and a validation round trip).
  await expect(dialog.locator('.monaco-editor .view-lines').last()).toContainText('"superstep"')
  await page.waitForTimeout(1500)
  await page.keyboard.press('Escape')
  await importGraph(page, {
    superstep: 1,
    name: 'imported',
    state: [{ name: 'n', reducer: 'add', default: 0 }],
    nodes: [{ id: 'a', code: '(s) => ({ n: 1 })', position: { x: 0, y: 0 } }],
    edges: [
      { from: '__start__', to: 'a' },
      { from: 'a', to: '__end__' },
    ],
    branches: [],
  } as { name: string })
  await page.getByRole('button', { name: 'Export', exact: true }).click()
  await expect(page.getByRole('dialog').locator('.monaco-editor').first()).toBeVisible()
  await page.waitForTimeout(1500)
  expect(errors).toEqual([])
})
