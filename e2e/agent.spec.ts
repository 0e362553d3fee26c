import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test, type Page, type Request } from '@playwright/test'

interface NodeJson {
  id: string
  [k: string]: unknown
}
const reactAgent = JSON.parse(readFileSync('examples/react-agent.json', 'utf8')) as {
  nodes: NodeJson[]
  [k: string]: unknown
}

/** The ReAct agent runs against a local OpenAI-compatible mock; the key goes nowhere else. */

const KEY = 'sk-e2e-SECRET-7f3a9c21'

interface Seen {
  headers: Record<string, string | string[] | undefined>
  body: { messages?: { role: string; content: unknown; tool_call_id?: string }[]; tools?: unknown }
}

/** Tool call first, then the final answer once a tool result is in the messages. */
async function startMock() {
  const seen: Seen[] = []
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
  return { port, seen, close: () => new Promise((r) => server.close(r)) }
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
    const settings = page.getByRole('dialog', { name: 'Settings' })
    await settings.getByLabel('Base URL 1').fill(`${baseUrl}/`)
    await settings.getByLabel('API key 1').fill(KEY)
    await settings.getByRole('button', { name: 'Save keys' }).click()
    await expect(settings.getByText('Saved', { exact: true })).toBeVisible()
    await settings.getByRole('button', { name: 'Close' }).click()

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
    await page.getByRole('button', { name: 'Trust and allow running' }).click()
    await page.getByRole('tab', { name: 'Input', exact: true }).click()
    await page.getByLabel('Input messages').fill('[{"type":"human","content":"Weather in Paris?"}]')
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await expect(page.getByLabel('Run status')).toHaveText('done')

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
  const doc = {
    ...reactAgent,
    name: 'refused agent',
    nodes: reactAgent.nodes.map((n) =>
      n.id === 'agent'
        ? {
            ...n,
            model: { provider: 'openai', baseUrl: `http://localhost:${mock.port}/v1`, model: 'm' },
          }
        : n,
    ),
  }
  await page.getByLabel('Import a graph file').setInputFiles({
    name: 'refused.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  })
  await expect(page.getByRole('heading', { level: 1, name: 'refused agent' })).toBeVisible()
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveText('failed')
  const error = page.getByLabel('Run error')
  await expect(error).toContainText('ModelCallError')
  await expect(error).toContainText('agent')
  await expect(error).toContainText('could not reach')
})
