import { readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { startFakeOpenAi } from './fakeOpenAi'
import { importGraph } from './graphFiles'

/**
 * The Chat tab: a message goes in as a human message and the graph answers on the thread;
 * replies stream in; tool calls and interrupts show in the conversation; an edited message
 * forks the thread and the chat switches between the branches, across a reload.
 */

const chatbot = JSON.parse(readFileSync('examples/chatbot.json', 'utf8')) as {
  nodes: { id: string; [k: string]: unknown }[]
  [k: string]: unknown
}

const HELLO = 'Hello! What would you like to build?'
const GRAPH = 'A graph sounds great. Start with a node.'

async function openChatbot(page: Page) {
  await page.goto('/')
  await page
    .getByRole('button', { name: 'New graph from template chatbot with a scripted model' })
    .click()
  await page.getByRole('tab', { name: 'Chat' }).click()
}

async function say(page: Page, text: string) {
  const box = page.getByRole('textbox', { name: 'Chat message' })
  await box.fill(text)
  await box.press('Enter')
  // The message is in the thread once its input is applied; then the run ends or waits.
  await expect(conversation(page).locator('.chat-human').last()).toContainText(text)
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', /^(done|waiting)$/)
}

function conversation(page: Page) {
  return page.getByRole('list', { name: 'Conversation' })
}
const humanTexts = (page: Page) =>
  conversation(page).locator('.chat-human .msg .msg-content').allInnerTexts()

test('chat with the scripted chatbot: each message runs the graph; the conversation is kept', async ({
  page,
}) => {
  await openChatbot(page)
  const log = page.getByRole('region', { name: 'Chat conversation' })
  await expect(log).toContainText('No messages yet')
  const box = page.getByRole('textbox', { name: 'Chat message' })
  await box.fill('hi')
  await box.press('Enter')
  await expect(page.getByLabel('Run status')).toHaveText('Done')
  await expect(log).toContainText('hi')
  await expect(log).toContainText(HELLO)
  // Not the Run button's "finished, so it starts again" note: a message is new input.
  await expect(page.getByRole('status', { name: 'Message' })).not.toContainText('had finished')
  await box.fill('a graph, please')
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(log).toContainText(GRAPH)
  await expect(log).toContainText('a graph, please')
  // Reloaded: the conversation is the thread's.
  await page.reload()
  await page.getByRole('tab', { name: 'Chat' }).click()
  await expect(log).toContainText('A graph sounds great.')
})

test('each turn links to its checkpoints: a click selects one in the timeline and shows the chat there', async ({
  page,
}) => {
  await openChatbot(page)
  await say(page, 'hi')
  await say(page, 'a graph, please')
  const turns = conversation(page).getByRole('group', { name: 'Checkpoints of this turn' })
  await expect(turns).toHaveCount(2)
  // The first turn: its input checkpoint, the __start__ step and the model's step.
  const first = turns.nth(0).getByRole('button')
  await expect(first).toHaveText(['-1', '0', '1'])
  await first.nth(2).click()
  const timeline = page.getByRole('listbox', { name: 'Checkpoints' })
  await expect(timeline.getByRole('option', { selected: true })).toHaveAttribute('data-step', '1')
  // The chat shows the conversation at that checkpoint: the second turn is not in it yet.
  await expect(conversation(page)).toContainText(HELLO)
  await expect(conversation(page)).not.toContainText('a graph, please')
  await expect(page.getByRole('status').filter({ hasText: 'forks from here' })).toBeVisible()
  await page.getByRole('button', { name: 'Latest of this branch' }).click()
  await expect(conversation(page)).toContainText(GRAPH)
})

test('edit an earlier message: the thread forks, both branches are kept and switchable, across a reload', async ({
  page,
}) => {
  await openChatbot(page)
  await say(page, 'hi')
  await say(page, 'a graph, please')
  const timeline = page.getByRole('listbox', { name: 'Checkpoints' })
  await expect(timeline.getByRole('option')).toHaveCount(6)

  const firstTurn = conversation(page).locator('.chat-human').first()
  await firstTurn.getByRole('button', { name: 'Edit' }).click()
  const edit = page.getByRole('textbox', { name: 'Edited message' })
  await expect(edit).toHaveValue('hi')
  await edit.fill('hello there')
  await page.getByRole('button', { name: 'Save and run' }).click()
  await expect(page.getByLabel('Run status')).toHaveText('Done')
  // The new branch: the edited message and its reply; the later turn is on the old branch.
  await expect.poll(() => humanTexts(page)).toEqual(['hello there'])
  await expect(conversation(page)).toContainText(HELLO)
  const versions = conversation(page).getByRole('group', { name: 'Versions of this message' })
  await expect(versions).toContainText('2/2')
  // The old branch is kept: the fork adds checkpoints, from the first input checkpoint.
  await expect(timeline.getByRole('option')).toHaveCount(9)
  await expect(timeline.locator('li[data-lane="1"]')).not.toHaveCount(0)

  // Switch to the first version: its whole conversation, the timeline on its tip.
  await versions.getByRole('button', { name: 'Previous version' }).click()
  await expect.poll(() => humanTexts(page)).toEqual(['hi', 'a graph, please'])
  await expect(conversation(page)).toContainText(GRAPH)
  await expect(versions).toContainText('1/2')
  await expect(timeline.getByRole('option', { selected: true })).toHaveAttribute('data-step', '4')

  // A reload shows the branch that was shown.
  await page.reload()
  await page.getByRole('tab', { name: 'Chat' }).click()
  await expect.poll(() => humanTexts(page)).toEqual(['hi', 'a graph, please'])
  await expect(versions).toContainText('1/2')
  await versions.getByRole('button', { name: 'Next version' }).click()
  await expect.poll(() => humanTexts(page)).toEqual(['hello there'])
})

test('a tool call and its result show as cards in the conversation', async ({ page }) => {
  await page.goto('/')
  await page
    .getByRole('button', { name: 'New graph from template ReAct agent with a scripted model' })
    .click()
  await page.getByRole('tab', { name: 'Chat' }).click()
  await say(page, 'What is the weather in Paris?')
  await expect(page.getByLabel('Run status')).toHaveText('Done')
  const calls = conversation(page).getByRole('list', { name: 'Tool calls' })
  await expect(calls).toContainText('get_weather')
  await expect(calls).toContainText('Paris')
  await expect(conversation(page).locator('.msg-tool')).toContainText('sunny')
  await expect(conversation(page)).toContainText('It is 18 °C and sunny in Paris.')
})

/** A reply that asks before it is sent: interrupt() in the conversation. */
const ASK = {
  superstep: 1,
  name: 'chat with an approval',
  state: [{ name: 'messages', reducer: 'add_messages', default: [] }],
  nodes: [
    {
      id: 'ask',
      code:
        "(s) => { const r = interrupt({ question: 'Send the reply?' }); " +
        "return { messages: [{ type: 'ai', content: r === true ? 'Sent.' : r === false ? 'Not sent.' : 'You said: ' + JSON.stringify(r) }] } }",
    },
  ],
  edges: [
    { from: '__start__', to: 'ask' },
    { from: 'ask', to: '__end__' },
  ],
}

test('an interrupt waits in the conversation: Approve, Reject, Edit and a typed reply resume it', async ({
  page,
}) => {
  await page.goto('/')
  await importGraph(page, ASK)
  await page.getByRole('tab', { name: 'Chat' }).click()
  const card = page.getByRole('region', { name: 'Interrupt' })
  await say(page, 'one')
  await expect(card).toContainText('Send the reply?')
  // The Chat tab stays open: the interrupt is answered in the conversation.
  await expect(page.getByRole('tab', { name: 'Chat' })).toHaveAttribute('aria-selected', 'true')
  await page.screenshot({ path: test.info().outputPath('chat-interrupt-1280.png') })
  await card.getByRole('button', { name: 'Approve' }).click()
  await expect(conversation(page)).toContainText('Sent.')
  await expect(card).toHaveCount(0)

  await say(page, 'two')
  await card.getByRole('button', { name: 'Reject' }).click()
  await expect(conversation(page)).toContainText('Not sent.')

  await say(page, 'three')
  await card.getByRole('button', { name: 'Edit', exact: true }).click()
  await expect(card.getByRole('textbox', { name: 'Reply' })).toHaveValue(/Send the reply\?/)
  await card.getByRole('textbox', { name: 'Reply' }).fill('"later"')
  await card.getByRole('button', { name: 'Resume' }).click()
  await expect(conversation(page)).toContainText('You said: "later"')

  // The chat box answers as text while an interrupt waits.
  await say(page, 'four')
  await expect(page.getByRole('button', { name: 'Reply', exact: true })).toBeVisible()
  const box = page.getByRole('textbox', { name: 'Chat message' })
  await box.fill('tomorrow')
  await box.press('Enter')
  await expect(conversation(page)).toContainText('You said: "tomorrow"')
  await expect.poll(() => humanTexts(page)).toEqual(['one', 'two', 'three', 'four'])
})

test('a reply streams in: the pending bubble grows before the reply ends, then is the checkpointed message', async ({
  page,
}) => {
  const pieces = ['Streaming ', 'one ', 'piece ', 'at ', 'a ', 'time.']
  const fake = await startFakeOpenAi([{ content: pieces, delayMs: 400 }])
  try {
    await page.goto('/')
    const doc = {
      ...chatbot,
      name: 'streamed chat',
      nodes: chatbot.nodes.map((n) =>
        n.id === 'bot'
          ? { ...n, model: { provider: 'openai', baseUrl: fake.baseUrl, model: 'fake' } }
          : n,
      ),
    }
    await importGraph(page, doc)
    await page.getByLabel('Allow network').check()
    await page.getByRole('tab', { name: 'Chat' }).click()
    const box = page.getByRole('textbox', { name: 'Chat message' })
    await box.fill('tell me')
    await box.press('Enter')
    const pending = page.getByRole('listitem', { name: 'Reply being written' })
    await expect(pending).toContainText('Streaming one')
    await expect(page.getByLabel('Run status')).toHaveText('Running…')
    await expect(pending).toContainText('Streaming one piece at')
    await page.screenshot({ path: test.info().outputPath('chat-streaming-1280.png') })
    await expect(page.getByLabel('Run status')).toHaveText('Done')
    await expect(pending).toHaveCount(0)
    await expect(conversation(page).locator('.chat-ai')).toHaveText(
      /Streaming one piece at a time\./,
    )
    expect(fake.requests[0]?.body.stream).toBe(true)
  } finally {
    await fake.close()
  }
})

test('a graph without a messages field says the chat is not for it', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('tab', { name: 'Chat' }).click()
  await expect(page.getByRole('tabpanel')).toContainText('graphs with a messages field')
})

test('the chat fits at 1280x800', async ({ page }) => {
  await openChatbot(page)
  await say(page, 'hi')
  await say(page, 'a graph, please')
  await conversation(page)
    .locator('.chat-human')
    .first()
    .getByRole('button', { name: 'Edit' })
    .click()
  await page.getByRole('textbox', { name: 'Edited message' }).fill('hello there')
  await page.getByRole('button', { name: 'Save and run' }).click()
  await expect(page.getByLabel('Run status')).toHaveText('Done')
  const panel = page.getByRole('tabpanel')
  const box = await panel.boundingBox()
  const input = await page.getByRole('button', { name: 'Send', exact: true }).boundingBox()
  expect(box && input).toBeTruthy()
  if (box && input) {
    // The Send button is inside the panel and the page: nothing pushed out of view.
    expect(input.x + input.width).toBeLessThanOrEqual(box.x + box.width + 1)
    expect(input.y + input.height).toBeLessThanOrEqual(800)
  }
  await page.screenshot({ path: test.info().outputPath('chat-1280.png') })
})

test('the chat opens at the end of the conversation and stays there as its view changes, unless scrolled up', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/')
  await page
    .getByRole('button', { name: 'New graph from template ReAct agent with a scripted model' })
    .click()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveText('Done')
  // A moment on the graph first: the tab then opens on a finished thread (the parts of a
  // message drawn after it opened once left the last one cut off).
  await page.waitForTimeout(1000)
  await page.getByRole('tab', { name: 'Chat' }).click()
  const log = page.getByRole('region', { name: 'Chat conversation' })
  const below = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)
  await expect(conversation(page).locator('.chat-item').last()).toBeInViewport({ ratio: 0.99 })
  await expect.poll(below).toBeLessThan(2)
  // A smaller window: the end stays in view.
  await page.setViewportSize({ width: 1280, height: 720 })
  await expect.poll(below).toBeLessThan(2)
  // Scrolled up by the user: a change of the view leaves it where the user put it.
  await log.evaluate((el) => el.scrollTo({ top: 0 }))
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.waitForTimeout(200)
  expect(await log.evaluate((el) => el.scrollTop)).toBe(0)
})
