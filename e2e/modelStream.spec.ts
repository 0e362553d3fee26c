import { expect, test, type Page } from '@playwright/test'
import { checkpointIds, importAgentOn } from './graphFiles'
import { startFakeOpenAi, type FakeOpenAi, type FakeReply } from './fakeOpenAi'

/**
 * A model node on an OpenAI-compatible endpoint that streams (the fake server on loopback):
 * the whole reply lands in state; each endpoint fault fails the node with a clear error; Stop
 * mid-stream ends the run at once and keeps the checkpoints before it.
 */

const TOOL_CALL: FakeReply = {
  toolCalls: [{ name: 'get_weather', args: '{"city":"Paris"}', id: 'call_fake_1', argPieces: 3 }],
}

/** Imports the ReAct agent with its model on `fake`, trusts it and lets it reach the network. */
async function openAgent(page: Page, name: string, fake: FakeOpenAi, model: object = {}) {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await importAgentOn(page, name, fake.baseUrl, { model: 'fake', ...model })
  await page.getByRole('tab', { name: 'Input', exact: true }).click()
  await page.getByLabel('Input messages').fill('[{"type":"human","content":"Weather in Paris?"}]')
}

async function messagesInState(page: Page) {
  await page.getByRole('tab', { name: 'Channels', exact: true }).click()
  const tree = page
    .getByRole('table', { name: 'Channels' })
    .locator('tr[data-channel="messages"] td.value [data-json]')
  return JSON.parse((await tree.getAttribute('data-json')) ?? '[]') as {
    type: string
    content: unknown
    tool_calls?: unknown[]
  }[]
}

test('a streamed reply arrives whole in state: tool call, then the answer', async ({ page }) => {
  const fake = await startFakeOpenAi((req) =>
    req.body.messages?.some((m) => m.role === 'tool')
      ? { content: ['It is ', '18 °C', ' and sunny', ' in Paris', ' (fake).'], delayMs: 60 }
      : TOOL_CALL,
  )
  try {
    await openAgent(page, 'streaming agent', fake)
    // While the Stream tab is open, the run streams messages: the model node asks for deltas.
    await page.getByRole('tab', { name: 'Stream' }).click()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
    // One `messages` chunk per piece the endpoint sent: 3 of the tool call, 5 of the answer.
    const filters = page.getByRole('group', { name: 'Stream filters' })
    await filters.getByLabel('updates').uncheck()
    await filters.getByLabel('custom').uncheck()
    await page.getByLabel('Stream node').selectOption('agent')
    const rows = page.getByRole('list', { name: 'Stream chunks' }).getByRole('listitem')
    await expect(rows.and(page.locator('[data-mode="messages"]'))).toHaveCount(8)
    await expect(rows.nth(0)).toContainText('get_weather')
    await expect(rows.nth(3)).toContainText('"content":"It is ","id":"chatcmpl-fake-2"')
    await expect(rows.nth(7)).toContainText('"content":" (fake).","id":"chatcmpl-fake-2"')
    expect(fake.requests).toHaveLength(2)
    for (const r of fake.requests) {
      expect(r.body.stream).toBe(true)
      expect(r.finished).toBe(true)
    }
    await expect
      .poll(async () => (await messagesInState(page)).map((m) => m.type))
      .toEqual(['human', 'ai', 'tool', 'ai'])
    const messages = await messagesInState(page)
    expect(messages[1]?.tool_calls).toEqual([
      expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' }, id: 'call_fake_1' }),
    ])
    expect(messages[3]).toMatchObject({
      content: 'It is 18 °C and sunny in Paris (fake).',
      id: 'chatcmpl-fake-2',
    })
  } finally {
    await fake.close()
  }
})

test('each endpoint fault fails the model node with a clear error; no checkpoint is lost', async ({
  page,
}) => {
  const faults: [FakeReply, ...string[]][] = [
    [
      { kind: 'status', status: 429, message: 'Rate limit reached, retry in 20s' },
      'HTTP 429',
      'Rate limit reached, retry in 20s',
    ],
    [{ kind: 'status', status: 500, message: 'The fake is down' }, 'HTTP 500', 'The fake is down'],
    [
      { kind: 'malformed', before: ['It is'] },
      'malformed event stream',
      'event 3 whose data is not JSON',
    ],
    [{ kind: 'drop', before: ['It ', 'is'] }, 'broke off after 3 events: 5 characters of text'],
    [{ kind: 'hang', before: ['It'] }, 'sent nothing for 1.5 s after 2 events'],
  ]
  // The first call asks for the tool; each later call (the same step, run again) is a fault.
  const fake = await startFakeOpenAi([TOOL_CALL, ...faults.map(([reply]) => reply)])
  const url = `${fake.baseUrl}/chat/completions`
  try {
    await openAgent(page, 'faulty agent', fake, { timeoutMs: 1500 })
    const run = page.getByRole('button', { name: /^(Run|Continue)$/ })
    const error = page.getByLabel('Run error')
    const agentNode = page.locator('.react-flow__node[data-id="agent"] .ss-node')
    const options = page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
    let before: (string | null)[] | undefined
    for (const [i, [, ...says]] of faults.entries()) {
      await run.first().click()
      await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'failed')
      for (const text of ['ModelCallError', 'Model node `agent`', url, ...says])
        await expect(error).toContainText(text)
      await expect(agentNode).toHaveClass(/ss-failed/)
      expect(fake.requests).toHaveLength(i + 2)
      // The steps before the failed call stay; the tip waits to run the agent again.
      await expect(options.first()).toContainText('next: agent')
      const ids = await checkpointIds(page)
      if (before === undefined) {
        expect(ids.length).toBeGreaterThanOrEqual(4) // input, START, agent, tools
        before = ids
      } else expect(ids).toEqual(before)
    }
    // The stalled stream was let go when the timeout fired.
    expect(fake.requests.at(-1)?.closedByClient).toBe(true)
  } finally {
    await fake.close()
  }
})

test('Stop during a slow stream ends the run at once and keeps the checkpoints before it', async ({
  page,
}) => {
  const slow: FakeReply = {
    content: Array.from({ length: 40 }, (_, i) => `word${i} `),
    delayMs: 500,
  }
  const fake = await startFakeOpenAi([TOOL_CALL, slow])
  try {
    await openAgent(page, 'slow agent', fake)
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await fake.waitForRequests(2)
    // A few pieces are in: the reply is under way, with most of it still to come.
    await expect.poll(() => fake.requests[1]?.sent.length ?? 0).toBeGreaterThanOrEqual(3)
    await page.getByRole('button', { name: 'Stop', exact: true }).click()
    await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'stopped')
    // The request was abandoned: the server saw the connection close mid-reply.
    await expect.poll(() => fake.requests[1]?.closedByClient).toBe(true)
    expect(fake.requests[1]?.finished).toBe(false)
    expect(fake.requests[1]?.sent.length).toBeLessThan(20)

    const options = page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
    await expect(options.first()).toContainText('next: agent')
    const kept = await checkpointIds(page)
    expect(kept.length).toBeGreaterThanOrEqual(4) // input, START, agent, tools
    expect((await messagesInState(page)).map((m) => m.type)).toEqual(['human', 'ai', 'tool'])
    // They are stored: a reload lists the same ones.
    await page.reload()
    await page
      .getByRole('navigation', { name: 'Graphs and problems' })
      .getByRole('button', { name: 'slow agent', exact: true })
      .click()
    // (The click opens the graph again, after the reload's opening of it: polled.)
    await expect.poll(() => checkpointIds(page)).toEqual(kept)
    await expect(options.first()).toContainText('next: agent')
    expect(fake.requests).toHaveLength(2)
  } finally {
    await fake.close()
  }
})
