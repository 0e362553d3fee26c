import { expect, test, type Page } from '@playwright/test'
import { importGraph } from './graphFiles'

/**
 * A graph's declared run settings, as a user meets them: a form under the run's input, one
 * control per setting by its type, the default as placeholder; a number box refuses text;
 * the values are the thread's own, sent with its runs (the node's output shows them), kept
 * across a reload, and another thread has its own.
 */

const GRAPH = {
  superstep: 1,
  name: 'greeter settings',
  config: [
    { name: 'greeting', type: 'string', default: 'hello', description: 'How to greet.' },
    { name: 'times', type: 'number', default: 1, description: 'How many times.' },
    { name: 'shout', type: 'boolean', default: false },
  ],
  state: [{ name: 'text' }],
  nodes: [
    {
      id: 'greet',
      code: "(s, config) => { const c = config.configurable; const t = Array(c.times).fill(c.greeting).join(' '); return { text: c.shout ? t.toUpperCase() : t } }",
    },
  ],
  edges: [
    { from: '__start__', to: 'greet' },
    { from: 'greet', to: '__end__' },
  ],
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true }).click()
const setting = (page: Page, name: string) => page.getByLabel(`Setting ${name}`, { exact: true })
const output = (page: Page) =>
  page.getByRole('table', { name: 'Channels' }).locator('tr[data-channel="text"] td.value')

async function runAndRead(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
  await tab(page, 'Channels')
}

test('run settings: a form per thread, sent with each run, kept across a reload', async ({
  page,
}) => {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await importGraph(page, GRAPH)

  // The form: one control per setting, by type, its default as placeholder, its description.
  await tab(page, 'Input')
  const form = page.getByRole('table', { name: 'Run settings of this thread' })
  await expect(form).toBeVisible()
  await expect(setting(page, 'greeting')).toHaveAttribute('placeholder', 'default: hello')
  await expect(setting(page, 'times')).toHaveAttribute('placeholder', 'default: 1')
  await expect(setting(page, 'shout')).toHaveAttribute('type', 'checkbox')
  await expect(setting(page, 'shout')).not.toBeChecked()
  await expect(form).toContainText('How to greet.')

  // The defaults run first.
  await runAndRead(page)
  await expect(output(page)).toContainText('hello')
  await expect(output(page)).not.toContainText('hello hello')

  // Text in a number box is refused there, with the reason; a number is taken.
  await tab(page, 'Input')
  await setting(page, 'greeting').fill('hi')
  await setting(page, 'times').fill('three')
  await expect(setting(page, 'times')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByRole('alert').filter({ hasText: 'is not a number' })).toBeVisible()
  await setting(page, 'times').fill('3')
  await expect(setting(page, 'times')).not.toHaveAttribute('aria-invalid', 'true')
  await setting(page, 'shout').check()
  await page.screenshot({ path: 'test-results/run-config-form.png' })
  await runAndRead(page)
  await expect(output(page)).toContainText('HI HI HI')

  // Another thread has its own: the defaults until set.
  await page.getByRole('button', { name: 'New thread' }).click()
  await tab(page, 'Input')
  await expect(setting(page, 'greeting')).toHaveValue('')
  await expect(setting(page, 'times')).toHaveValue('')
  await expect(setting(page, 'shout')).not.toBeChecked()
  await setting(page, 'greeting').fill('yo')
  await runAndRead(page)
  await expect(output(page)).toContainText('yo')
  await expect(output(page)).not.toContainText('YO')

  // A reload keeps each thread's own.
  await page.reload()
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await tab(page, 'Input')
  await expect(setting(page, 'greeting')).toHaveValue('yo')
  await expect(setting(page, 'times')).toHaveValue('')
  const picker = page.getByRole('combobox', { name: 'Thread' })
  // Both threads listed (the list comes from the worker after the reload); the one the
  // settings were set on is `main`, chosen by its name (not by its place in the list).
  await expect(picker.locator('option')).toHaveCount(2)
  await picker.selectOption({
    label: await picker.locator('option', { hasText: /^main \(/ }).innerText(),
  })
  await tab(page, 'Input')
  await expect(setting(page, 'greeting')).toHaveValue('hi')
  await expect(setting(page, 'times')).toHaveValue('3')
  await expect(setting(page, 'shout')).toBeChecked()
  // Run again on the first thread after the reload: its settings are sent.
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
  await tab(page, 'Channels')
  await expect(output(page)).toContainText('HI HI HI')
  expect(errors).toEqual([])
})
