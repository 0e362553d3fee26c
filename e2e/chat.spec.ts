import { expect, test } from '@playwright/test'

/** The Chat tab: a message goes in as a human message and the graph answers on the thread. */

test('chat with the scripted chatbot: each message runs the graph; the conversation is kept', async ({
  page,
}) => {
  await page.goto('/')
  await page
    .getByRole('button', { name: 'New graph from template chatbot with a scripted model' })
    .click()
  await page.getByRole('tab', { name: 'Chat' }).click()
  const log = page.getByRole('region', { name: 'Chat conversation' })
  await expect(log).toContainText('No messages yet')
  const box = page.getByRole('textbox', { name: 'Chat message' })
  await box.fill('hi')
  await box.press('Enter')
  await expect(page.getByLabel('Run status')).toHaveText('Done')
  await expect(log).toContainText('hi')
  await expect(log).toContainText('Hello! What would you like to build?')
  // Not the Run button's "finished, so it starts again" note: a message is new input.
  await expect(page.getByRole('status', { name: 'Message' })).not.toContainText('had finished')
  await box.fill('a graph, please')
  await page.getByRole('button', { name: 'Send', exact: true }).click()
  await expect(log).toContainText('A graph sounds great. Start with a node.')
  await expect(log).toContainText('a graph, please')
  // Reloaded: the conversation is the thread's.
  await page.reload()
  await page.getByRole('tab', { name: 'Chat' }).click()
  await expect(log).toContainText('A graph sounds great.')
})

test('a graph without a messages field says the chat is not for it', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('tab', { name: 'Chat' }).click()
  await expect(page.getByRole('tabpanel')).toContainText('graphs with a messages field')
})
