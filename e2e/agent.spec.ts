import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test, type Page, type Request } from '@playwright/test'
import { checkpointIds, importAgentOn, reactAgent } from './graphFiles'

/** The ReAct agent runs against a local OpenAI-compatible mock; the key goes nowhere else. */

const KEY = 'sk-e2e-SECRET-7f3a9c21'

interface Seen {
  headers: Record<string, string | string[] | undefined>
  body: { messages?: { role: string; content: unknown; tool_call_id?: string }[]; tools?: unknown }
}

/**
 * Tool call first, then the final answer once a tool result is in the messages. `failFrom(n)`
 * makes the n-th request (1-based) and every later one answer HTTP 500; `failFrom(null)` heals it.
 */
async function startMock() {
  const seen: Seen[] = []
  let failFrom: number | null = null
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': 'authorization, content-type',
    'access-control-allow-methods': 'POST, OPTIONS',
  }
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors)
      res.end()
      return
    }
    let raw = ''
    req.on('data', (c: Buffer) => (raw += c.toString()))
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Seen['body']
      seen.push({ headers: req.headers, body })
      if (failFrom !== null && seen.length >= failFrom) {
        res.writeHead(500, { ...cors, 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { message: 'the mock is down' } }))
        return
      }
      const answered = body.messages?.some((m) => m.role === 'tool')
      const message = answered
        ? { role: 'assistant', content: 'It is 18 °C and sunny in Paris (mock).' }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_mock_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          }
      res.writeHead(200, { ...cors, 'content-type': 'application/json' })
      res.end(JSON.stringify({ id: `chatcmpl-${seen.length}`, choices: [{ index: 0, message }] }))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    port,
    seen,
    failFrom: (n: number | null) => void (failFrom = n),
    close: () => new Promise((r) => server.close(r)),
  }
}

async function downloaded(page: Page, button: string): Promise<string> {
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: button }).click()
  return (await readFile(await (await download).path())).toString()
}

test('the ReAct agent runs against an OpenAI-compatible endpoint with a key from Settings', async ({
  page,
  context,
}) => {
  const mock = await startMock()
  const baseUrl = `http://localhost:${mock.port}/v1`
  // Every request of the page, its worker and the sandbox, with the headers sent.
  const requests: { url: string; headers: Record<string, string> }[] = []
  const pending: Promise<unknown>[] = []
  const onRequest = (r: Request) => {
    pending.push(
      r
        .allHeaders()
        .then((headers) => requests.push({ url: r.url(), headers }))
        .catch(() => requests.push({ url: r.url(), headers: r.headers() })),
    )
  }
  context.on('request', onRequest)
  try {
    await page.goto('/')
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()

    // The key goes in Settings, not in the graph.
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    await saveKey(page, `${baseUrl}/`)

    const doc = {
      ...reactAgent,
      name: 'mock agent',
      nodes: reactAgent.nodes.map((n) =>
        n.id === 'agent' ? { ...n, model: { provider: 'openai', baseUrl, model: 'mock' } } : n,
      ),
    }
    await page.getByLabel('Import a graph file').setInputFiles({
      name: 'mock-agent.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(doc)),
    })
    await expect(page.getByRole('heading', { level: 1, name: 'mock agent' })).toBeVisible()
    // Asked to trust it, the user sees where its model node would send the conversation.
    await expect(page.getByRole('alert').filter({ hasText: 'was imported' })).toContainText(
      `agent → ${baseUrl}`,
    )
    await page.getByRole('button', { name: 'Trust and allow running' }).click()
    await page.getByRole('tab', { name: 'Input', exact: true }).click()
    await page.getByLabel('Input messages').fill('[{"type":"human","content":"Weather in Paris?"}]')
    // Network is off: the model node fails before anything is sent.
    await runToModelError(page, 'Network setting is off', baseUrl)
    expect(mock.seen).toHaveLength(0)
    await page.getByLabel('Allow network').check()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')

    await page.getByRole('tab', { name: 'Channels', exact: true }).click()
    const cell = page
      .getByRole('table', { name: 'Channels' })
      .locator('tr[data-channel="messages"] td.value')
    // The value is a collapsed JSON tree; its full JSON is on `data-json`.
    const messages = async () =>
      JSON.parse((await cell.locator('[data-json]').getAttribute('data-json')) ?? 'null') as {
        type: string
        content: unknown
      }[]
    await expect
      .poll(async () => (await messages()).map((m) => m.type))
      .toEqual(['human', 'ai', 'tool', 'ai'])
    expect((await messages())[3]?.content).toBe('It is 18 °C and sunny in Paris (mock).')

    // Two calls: the tool call, then the answer with the tool result in the messages.
    expect(mock.seen).toHaveLength(2)
    expect(mock.seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(mock.seen[0]?.body.tools).toEqual([
      {
        type: 'function',
        function: expect.objectContaining({ name: 'get_weather' }) as unknown,
      },
    ])
    const second = mock.seen[1]?.body.messages ?? []
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
    expect(second[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_mock_1' })
    expect(String(second[2]?.content)).toContain('sunny')

    // The key was sent to the mock only.
    await Promise.all(pending)
    const withKey = requests.filter((r) => JSON.stringify(r.headers).includes(KEY))
    expect(withKey.length).toBeGreaterThan(0)
    for (const r of withKey) expect(r.url).toBe(`${baseUrl}/chat/completions`)
    expect(requests.filter((r) => r.url.includes('/chat/completions')).length).toBeGreaterThan(0)

    // Neither the thread file nor the graph file carries it.
    const thread = await downloaded(page, 'Export thread')
    expect(thread).toContain('call_mock_1')
    expect(thread).not.toContain(KEY)
    await page.getByRole('button', { name: 'Export', exact: true }).click()
    const graphFile = await downloaded(page, 'Download graph file')
    expect(graphFile).toContain(baseUrl)
    expect(graphFile).not.toContain(KEY)
  } finally {
    context.off('request', onRequest)
    await Promise.all(pending)
    await mock.close()
  }
})

test('a refused connection ends the model node with a clear error', async ({ page }) => {
  const mock = await startMock()
  await mock.close() // a closed port: the connection is refused
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await importAgent(page, 'refused agent', `http://localhost:${mock.port}/v1`)
  await runToModelError(page, 'could not reach')
})

/** In the open Settings dialog: saves KEY for `baseUrl`, then closes the dialog. */
/** Run fails in the model node `agent` with a ModelCallError that says each of `says`. */
async function runToModelError(page: Page, ...says: string[]): Promise<void> {
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'failed')
  const error = page.getByLabel('Run error')
  for (const text of ['ModelCallError', 'agent', ...says]) await expect(error).toContainText(text)
}

async function saveKey(page: Page, baseUrl: string): Promise<void> {
  const settings = page.getByRole('dialog', { name: 'Settings' })
  await settings.getByLabel('Base URL 1').fill(baseUrl)
  await settings.getByLabel('API key 1').fill(KEY)
  await settings.getByRole('button', { name: 'Save keys' }).click()
  await expect(settings.getByText('Saved', { exact: true })).toBeVisible()
  await settings.getByRole('button', { name: 'Close' }).click()
}

/** Imports the ReAct agent with its model on `baseUrl`, and trusts it. */
async function importAgent(page: Page, name: string, baseUrl: string): Promise<void> {
  await importAgentOn(page, name, baseUrl, { model: 'mock' })
}

test('a failed model call loses no checkpoint; after a reload, Run resumes from the last one', async ({
  page,
}) => {
  const mock = await startMock()
  mock.failFrom(2) // the tool call goes through; the call after the tool fails
  try {
    await page.goto('/')
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
    await importAgent(page, 'flaky agent', `http://localhost:${mock.port}/v1`)
    await page.getByRole('tab', { name: 'Input', exact: true }).click()
    await page.getByLabel('Input messages').fill('[{"type":"human","content":"Weather in Paris?"}]')
    await runToModelError(page, 'HTTP 500', 'the mock is down')
    expect(mock.seen).toHaveLength(2)
    // The node itself carries the failure, with the error as its mark.
    const agentNode = page.locator('.react-flow__node[data-id="agent"] .ss-node')
    await expect(agentNode).toHaveClass(/ss-failed/)
    await expect(agentNode.getByRole('img', { name: /^Failed: .*HTTP 500/ })).toBeVisible()

    // The steps before the failure are checkpointed: the tip waits to run the agent again.
    const options = page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
    await expect(options.first()).toContainText('next: agent')
    const before = await checkpointIds(page)
    expect(before.length).toBeGreaterThanOrEqual(4) // input, START, agent, tools

    // They are in IndexedDB: a reload lists the same ones.
    await page.reload()
    await page
      .getByRole('navigation', { name: 'Graphs and problems' })
      .getByRole('button', { name: 'flaky agent', exact: true })
      .click()
    // (The click opens the graph again, after the reload's opening of it: polled.)
    await expect.poll(() => checkpointIds(page)).toEqual(before)
    await expect(options.first()).toContainText('next: agent')

    // The endpoint answers again: Run goes on from the last checkpoint to the end.
    mock.failFrom(null)
    await page.getByRole('button', { name: /^(Run|Continue)$/ }).click()
    await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
    expect(mock.seen).toHaveLength(3)
    await expect(page.locator('.ss-node.ss-failed')).toHaveCount(0)
    // Newest first: the new steps come on top of the old ones, all kept.
    await expect.poll(async () => (await checkpointIds(page)).length).toBeGreaterThan(before.length)
    expect((await checkpointIds(page)).slice(-before.length)).toEqual(before)
    await expect(options.first()).not.toContainText('next: agent')
    // The retried call carried the tool result of the step before the failure.
    expect(mock.seen[2]?.body.messages?.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
    await page.getByRole('tab', { name: 'Channels', exact: true }).click()
    const tree = page
      .getByRole('table', { name: 'Channels' })
      .locator('tr[data-channel="messages"] td.value [data-json]')
    await expect(tree).toHaveAttribute('data-json', /sunny in Paris \(mock\)/)
    const messages = JSON.parse((await tree.getAttribute('data-json')) ?? '[]') as {
      type: string
    }[]
    expect(messages.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'ai'])
  } finally {
    await mock.close()
  }
})

test('the inspector switches a model between scripted replies and an endpoint, one edit each', async ({
  page,
}) => {
  const mock = await startMock()
  const baseUrl = `http://localhost:${mock.port}/v1`
  try {
    await page.goto('/')
    await page
      .getByRole('button', { name: 'New graph from template ReAct agent with a scripted model' })
      .click()
    await expect(page.getByRole('heading', { level: 1, name: /ReAct agent/ })).toBeAttached()
    await page.locator('.react-flow__node[data-id="agent"]').click()
    const provider = page.getByLabel('Model provider of agent')
    const json = page.getByLabel('Settings of agent')
    await expect(provider).toHaveValue('scripted')
    await expect(page.getByLabel('Base URL of agent')).toHaveCount(0)

    await provider.selectOption({ label: 'OpenAI-compatible endpoint' })
    await expect(json).toHaveValue(/"provider": "openai"/)
    const url = page.getByLabel('Base URL of agent')
    const model = page.getByLabel('Model of agent')
    const temperature = page.getByLabel('Temperature of agent')
    const timeout = page.getByLabel('Timeout (s) of agent')

    // Checked as typed; a bad value stays in the field and is not applied.
    await url.fill('ftp://example.com')
    await expect(page.getByText('must be an http:// or https:// URL')).toBeVisible()
    await expect(url).toHaveAttribute('aria-invalid', 'true')
    await url.press('Enter')
    await expect(json).not.toHaveValue(/ftp:/)
    await url.fill(baseUrl)
    await url.press('Enter')
    await expect(json).toHaveValue(new RegExp(`"baseUrl": "${baseUrl}"`))
    await model.fill('mock')
    await model.press('Enter')
    await temperature.fill('3')
    await expect(page.getByText('a number from 0 to 2')).toBeVisible()
    await temperature.fill('0.2')
    await temperature.press('Enter')
    await timeout.fill('0')
    await expect(page.getByText('a positive number of seconds')).toBeVisible()
    await timeout.fill('5')
    await timeout.press('Enter')
    await expect(json).toHaveValue(/"timeoutMs": 5000/)
    await expect(json).toHaveValue(/"temperature": 0.2/)
    await expect(json).toHaveValue(/"model": "mock"/)

    // The key note says whether Settings has a key for this base URL, and opens Settings.
    const note = page.getByRole('status').filter({ hasText: 'API key:' })
    await expect(note).toContainText('none for this base URL')
    await note.getByRole('button', { name: 'Open Settings' }).click()
    await saveKey(page, `${baseUrl}/`)
    await expect(note).toContainText('set for this base URL')
    await expect(note).not.toContainText(KEY)

    // The endpoint is live at once, once the graph may reach the network.
    await page.getByLabel('Allow network').check()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
    expect(mock.seen).toHaveLength(2)
    expect(mock.seen[0]?.headers.authorization).toBe(`Bearer ${KEY}`)

    // Back to scripted: the template's replies return; then the endpoint returns.
    await provider.selectOption({ label: 'Scripted replies' })
    await expect(json).toHaveValue(/"provider": "scripted"/)
    await expect(json).toHaveValue(/get_weather/)
    await expect(json).toHaveValue(/It is 18 °C and sunny in Paris\./)
    await provider.selectOption({ label: 'OpenAI-compatible endpoint' })
    await expect(url).toHaveValue(baseUrl)
    await expect(timeout).toHaveValue('5')

    // Each change was one edit: one undo reverts the last switch only.
    await page.getByRole('button', { name: 'Undo', exact: true }).click()
    await expect(provider).toHaveValue('scripted')
    await page.getByRole('button', { name: 'Undo', exact: true }).click()
    await expect(provider).toHaveValue('openai')
    await expect(timeout).toHaveValue('5')
    await page.getByRole('button', { name: 'Undo', exact: true }).click()
    await expect(timeout).toHaveValue('')
  } finally {
    await mock.close()
  }
})
