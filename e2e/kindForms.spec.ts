import { readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { importGraph } from './graphFiles'

/**
 * Model replies, tools and human nodes edited in forms (not JSON): each change one undoable
 * edit, invalid entries refused beside their control, the edits run and kept across a reload.
 */

const SHOTS = '/tmp/shots-forms'
const reactAgent = JSON.parse(readFileSync('examples/react-agent.json', 'utf8')) as Record<
  string,
  unknown
>

interface ToolJson {
  name: string
  description?: string
  parameters?: { properties?: Record<string, unknown>; required?: string[] }
  code: string
}
interface ReplyJson {
  content?: string
  tool_calls?: { name: string; args?: Record<string, unknown> }[]
}
interface MessageJson {
  type: string
  content: unknown
  tool_calls?: { name: string; args: unknown }[]
}

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`)
/** A node's kind settings as the document holds them (the JSON view, kept in the page). */
const settings = async (page: Page, id: string) =>
  JSON.parse(await page.getByLabel(`Settings of ${id}`).inputValue()) as {
    tools?: ToolJson[]
    model?: { replies: ReplyJson[] }
    show?: string
    writeTo?: string
    bindTools?: string
    messagesField?: string
  }
const tool = async (page: Page) => (await settings(page, 'tools')).tools?.[0]
const replies = async (page: Page) => (await settings(page, 'agent')).model?.replies

/** The code editor of a tool, once Monaco has drawn it. */
async function toolEditor(page: Page, name: string) {
  const editor = page
    .locator('.monaco-editor')
    .filter({ has: page.getByRole('textbox', { name: `Code of tool ${name}` }) })
  await expect(editor).toBeVisible({ timeout: 15_000 })
  return editor
}

const NEW_CODE = '({ city, days }) => ({ city, days: days ?? 1, temperature: days > 1 ? 20 : 18 })'
const ANSWER = 'Paris: 20 °C for 3 days. Rome: 18 °C. Anything else?'

test('a tool and the scripted replies edited in forms run, and are kept across a reload', async ({
  page,
}) => {
  await page.goto('/')
  await importGraph(page, { ...reactAgent, name: 'kind forms agent' })

  // The tools node: its tool as a form.
  await node(page, 'tools').click()
  const card = page.getByRole('group', { name: 'Tool get_weather' })
  await expect(card).toBeVisible()
  const description = card.getByLabel('Description of tool get_weather')
  await expect(description).toHaveValue('The current weather in a city.')
  await description.fill('The weather in a city, for some days.')
  await description.press('Enter')
  await expect
    .poll(async () => (await tool(page))?.description)
    .toBe('The weather in a city, for some days.')

  // A parameter: a clashing name is refused beside the input; then a number, required.
  await card.getByRole('button', { name: 'Add parameter' }).click()
  const paramName = card.getByLabel('Name of parameter get_weather.param')
  await expect(paramName).toBeVisible()
  await paramName.fill('city')
  await expect(card.getByText('Another parameter is named city.')).toBeVisible()
  await expect(paramName).toHaveAttribute('aria-invalid', 'true')
  await paramName.press('Enter')
  expect(Object.keys((await tool(page))?.parameters?.properties ?? {})).toEqual(['city', 'param'])
  await paramName.fill('days')
  await paramName.press('Enter')
  await card.getByLabel('Type of get_weather.days').selectOption({ label: 'number' })
  await card.getByLabel('Required get_weather.days').check()
  const paramDescription = card.getByLabel('Description of parameter get_weather.days')
  await paramDescription.fill('How many days.')
  await paramDescription.press('Enter')
  await expect
    .poll(async () => (await tool(page))?.parameters)
    .toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city.' },
        days: { type: 'number', description: 'How many days.' },
      },
      required: ['city', 'days'],
    })

  // The code, typed into Monaco with the keyboard: completion offers the parameters on the
  // argument, and `?` and `??` are characters there (not the shortcuts key).
  const editor = await toolEditor(page, 'get_weather')
  const lines = editor.locator('.view-lines')
  await expect(lines).toContainText("sky:\u00a0'sunny'")
  await lines.click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.press('Delete')
  await page.keyboard.type('(args) => args.', { delay: 20 })
  const suggestions = page.locator('.suggest-widget')
  await expect(suggestions).toContainText('days')
  await expect(suggestions).toContainText('city')
  await page.screenshot({ path: `${SHOTS}/tool-completion.png` })
  await page.keyboard.press('Escape')
  await expect(suggestions).toBeHidden()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.press('Delete')
  await page.keyboard.type(NEW_CODE, { delay: 20 })
  await expect(lines).toHaveText(NEW_CODE.replace(/ /g, '\u00a0'))
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect.poll(async () => (await tool(page))?.code).toBe(NEW_CODE)
  await page.screenshot({ path: `${SHOTS}/tools-edited.png` })

  // The model node: its scripted replies as forms.
  await node(page, 'agent').click()
  const reply1 = page.getByRole('group', { name: 'Reply 1' })
  const args1 = reply1.getByLabel('Arguments of call 1 of reply 1')
  await expect(args1).toHaveValue('{"city":"Paris"}')
  // Not JSON while typed: flagged beside the box and not applied; applied once it is.
  await args1.click()
  await args1.press('ControlOrMeta+a')
  await args1.pressSequentially('{"city": "Paris", "days": ', { delay: 10 })
  await expect(reply1.getByText(/^Not JSON/)).toBeVisible()
  await expect(args1).toHaveAttribute('aria-invalid', 'true')
  expect((await replies(page))?.[0]?.tool_calls?.[0]?.args).toEqual({ city: 'Paris' })
  await args1.pressSequentially('3}', { delay: 10 })
  await expect(reply1.getByText(/^Not JSON/)).toHaveCount(0)
  await expect
    .poll(async () => (await replies(page))?.[0]?.tool_calls?.[0]?.args)
    .toEqual({ city: 'Paris', days: 3 })

  // A second call: the tool is chosen from the graph's tools, its arguments start from the
  // tool's required parameters.
  await reply1.getByRole('button', { name: 'Add tool call' }).click()
  await expect(reply1.getByLabel('Tool of call 2 of reply 1')).toHaveValue('get_weather')
  const args2 = reply1.getByLabel('Arguments of call 2 of reply 1')
  await expect(args2).toHaveValue('{"city":"","days":0}')
  await args2.fill('{"city": "Rome", "days": 1}')
  const content2 = page.getByLabel('Content of reply 2')
  await content2.click()
  await content2.press('ControlOrMeta+a')
  await content2.pressSequentially(ANSWER, { delay: 10 })
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await content2.blur()
  await expect
    .poll(() => replies(page))
    .toEqual([
      {
        tool_calls: [
          { name: 'get_weather', args: { city: 'Paris', days: 3 } },
          { name: 'get_weather', args: { city: 'Rome', days: 1 } },
        ],
      },
      { content: ANSWER },
    ])
  await page.screenshot({ path: `${SHOTS}/agent-edited.png` })

  // Run: the tools answer with the new code, the model with the new text.
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } })
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
  await page.getByRole('tab', { name: 'Channels', exact: true }).click()
  const tree = page
    .getByRole('table', { name: 'Channels' })
    .locator('tr[data-channel="messages"] td.value [data-json]')
  await expect(tree).toHaveAttribute('data-json', /Anything else\?/)
  const messages = JSON.parse((await tree.getAttribute('data-json')) ?? '[]') as MessageJson[]
  expect(messages.map((m) => m.type).slice(-4)).toEqual(['ai', 'tool', 'tool', 'ai'])
  expect(messages.at(-4)?.tool_calls?.map((c) => c.args)).toEqual([
    { city: 'Paris', days: 3 },
    { city: 'Rome', days: 1 },
  ])
  const results = messages
    .filter((m) => m.type === 'tool')
    .map((m) => JSON.parse(String(m.content)))
  expect(results).toEqual([
    { city: 'Paris', days: 3, temperature: 20 },
    { city: 'Rome', days: 1, temperature: 18 },
  ])
  expect(messages.at(-1)?.content).toBe(ANSWER)
  await page.getByRole('tab', { name: 'State', exact: true }).click()
  // Shown as messages: the tool results beside their calls, and the reply.
  const state = page.getByRole('tabpanel')
  await expect(state).toContainText(ANSWER)
  await expect(state).toContainText('{"city":"Paris","days":3,"temperature":20}')
  await expect(state).toContainText('{"city":"Rome","days":1,"temperature":18}')
  await page.screenshot({ path: `${SHOTS}/run.png` })

  // Reload: every edit was saved.
  await page.reload()
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await expect(page.getByRole('heading', { level: 1, name: 'kind forms agent' })).toBeAttached()
  await node(page, 'tools').click()
  await expect(page.getByLabel('Description of tool get_weather')).toHaveValue(
    'The weather in a city, for some days.',
  )
  await expect(page.getByLabel('Type of get_weather.days')).toHaveValue('number')
  await expect(page.getByLabel('Required get_weather.days')).toBeChecked()
  await expect((await toolEditor(page, 'get_weather')).locator('.view-lines')).toHaveText(
    NEW_CODE.replace(/ /g, '\u00a0'),
  )
  await node(page, 'agent').click()
  await expect(page.getByLabel('Content of reply 2')).toHaveValue(ANSWER)
  await expect(page.getByLabel('Arguments of call 2 of reply 1')).toHaveValue(
    '{"city":"Rome","days":1}',
  )
})

test('human fields, messages field, bound tools and tool names: selects and checked inputs, one undo each', async ({
  page,
}) => {
  const agent = reactAgent as { nodes: Record<string, unknown>[]; state: unknown[] }
  const [model, tools] = agent.nodes as [Record<string, unknown>, { tools: ToolJson[] }]
  const doc = {
    ...reactAgent,
    name: 'kind forms fields',
    state: [
      ...agent.state,
      { name: 'draft' },
      { name: 'approved' },
      { name: 'chat', reducer: 'add_messages' },
    ],
    nodes: [
      model,
      {
        ...tools,
        tools: [...tools.tools, { name: 'get_time', code: "() => '12:00'" }],
      },
      {
        id: 'review',
        kind: 'human',
        show: 'draft',
        writeTo: 'approved',
        position: { x: 480, y: -120 },
      },
    ],
    edges: [...(reactAgent.edges as unknown[]), { from: '__start__', to: 'review' }],
  }
  await page.goto('/')
  await importGraph(page, doc)
  const undo = page.getByRole('button', { name: 'Undo', exact: true })

  // A human node: what it shows and where the reply goes, from the state's fields.
  await node(page, 'review').click()
  const shows = page.getByLabel('Field shown by review')
  const writes = page.getByLabel('Field review writes the reply to')
  await expect(shows).toHaveValue('draft')
  await expect(writes).toHaveValue('approved')
  expect(await shows.locator('option').allTextContents()).toEqual([
    'messages',
    'draft',
    'approved',
    'chat',
  ])
  await shows.selectOption('approved')
  await writes.selectOption('draft')
  await expect
    .poll(async () => settings(page, 'review'))
    .toEqual({ show: 'approved', writeTo: 'draft' })
  await page.screenshot({ path: `${SHOTS}/human.png` })
  await undo.click()
  await expect(writes).toHaveValue('approved')
  await expect(shows).toHaveValue('approved')

  // A tools node: its messages field, and tool names that are refused beside the input.
  await node(page, 'tools').click()
  await page.getByLabel('Messages field of tools').selectOption('chat')
  await expect.poll(async () => (await settings(page, 'tools')).messagesField).toBe('chat')
  const timeName = page.getByLabel('Name of tool get_time')
  await timeName.fill('get_weather')
  await expect(page.getByText('Another tool is named get_weather.')).toBeVisible()
  await timeName.press('Enter')
  await timeName.fill('')
  await expect(page.getByText('A tool needs a name.')).toBeVisible()
  await timeName.press('Enter')
  expect((await settings(page, 'tools')).tools?.map((t) => t.name)).toEqual([
    'get_weather',
    'get_time',
  ])
  await timeName.fill('clock')
  await timeName.press('Enter')
  await expect
    .poll(async () => (await settings(page, 'tools')).tools?.map((t) => t.name))
    .toEqual(['get_weather', 'clock'])

  // A model node: a call names one of the graph's tools, or any name; the bound tools node.
  await node(page, 'agent').click()
  const callTool = page.getByLabel('Tool of call 1 of reply 1')
  expect(await callTool.locator('option').allTextContents()).toEqual([
    'get_weather',
    'clock',
    'Another name…',
  ])
  await callTool.selectOption({ label: 'Another name…' })
  const typed = page.getByLabel('Tool name of call 1 of reply 1')
  await expect(typed).toBeFocused()
  await page.keyboard.type('lookup')
  await page.keyboard.press('Enter')
  await expect(callTool).toHaveValue('lookup')
  await expect(page.getByText('No tools node has a tool lookup')).toBeVisible()
  await expect.poll(async () => (await replies(page))?.[0]?.tool_calls?.[0]?.name).toBe('lookup')
  const bound = page.getByLabel('Tools bound to agent')
  await expect(bound).toHaveValue('tools')
  await bound.selectOption({ label: 'none' })
  await expect.poll(async () => (await settings(page, 'agent')).bindTools).toBeUndefined()
  await page.screenshot({ path: `${SHOTS}/agent-fields.png` })
  await undo.click()
  await expect(bound).toHaveValue('tools')
  await undo.click()
  await expect(callTool).toHaveValue('get_weather')
})
