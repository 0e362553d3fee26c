import { execFileSync } from 'node:child_process'
import { expect, test, type Page } from '@playwright/test'

/**
 * The debugger in real Chromium, on the built app, with the canvas, the worker and the real
 * IndexedDB: step a counter loop against the CLI, breakpoints, interrupts, a fork, a diff,
 * threads, and a reload that keeps it all. Screenshots land in test-results/.
 */

interface CliCheckpoint {
  step: number
  source: string
  next: string[]
  values: Record<string, unknown>
  versions: Record<string, number>
}

/** What the command line reports for the bundled counter: the reference for the table. */
function cliRun(file: string): CliCheckpoint[] {
  const out = execFileSync('npx', ['tsx', 'src/cli/main.ts', 'run', file], { encoding: 'utf8' })
  return (JSON.parse(out) as { checkpoints: CliCheckpoint[] }).checkpoints
}

const status = (page: Page) => page.getByLabel('Run status')
const rows = (page: Page) => page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
const selectedRow = (page: Page) =>
  page.getByRole('listbox', { name: 'Checkpoints' }).locator('[aria-selected="true"]')
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true }).click()
const version = (page: Page, channel: string) =>
  page.getByRole('cell', { name: `Version of ${channel}`, exact: true })
const value = (page: Page, channel: string) =>
  page.getByRole('table', { name: 'Channels' }).locator(`tr[data-channel="${channel}"] td.value`)
const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"] .ss-node`)

test.beforeEach(async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await expect(page.getByRole('heading', { level: 1, name: 'counter' })).toBeAttached()
})

test('step a counter loop: every channel and version as the CLI reports it, versions_seen explains next', async ({
  page,
}) => {
  const cli = cliRun('examples/counter.json')
  await tab(page, 'Channels')
  /** The selected checkpoint against the CLI's checkpoint of the same step. */
  const check = async (expected: CliCheckpoint) => {
    await expect(selectedRow(page)).toHaveAttribute('data-step', String(expected.step))
    for (const field of ['count', 'log']) {
      await expect(version(page, field)).toHaveText(
        new RegExp(`^${expected.versions[field] ?? '—'}( \\(was \\d+\\))?$`),
      )
    }
    await expect(value(page, 'count')).toHaveText(String(expected.values.count))
    await expect(selectedRow(page)).toContainText(`next: ${expected.next.join(', ') || '—'}`)
  }
  for (let step = 1; step < cli.length; step++) {
    await page.keyboard.press('F10')
    // The first Step writes the input checkpoint and runs START: two checkpoints.
    await expect(rows(page)).toHaveCount(step + 1)
    await expect(status(page)).toHaveAttribute(
      'data-phase',
      step === cli.length - 1 ? /^(done|paused)$/ : 'paused',
    )
    await check(cli[step] as CliCheckpoint)
    if (step === 1) {
      await rows(page).last().click()
      await check(cli[0] as CliCheckpoint)
      await rows(page).first().click()
    }
  }
  // The compiler's channels are listed beside the fields.
  const channels = page.getByRole('table', { name: 'Channels' })
  for (const ch of ['__start__', '__pregel_tasks', 'branch:to:inc'])
    await expect(channels.locator(`tr[data-channel="${ch}"]`)).toHaveCount(1)
  await expect(channels.locator('tr[data-channel="count"]')).toContainText(
    'BinaryOperatorAggregate',
  )

  // Step 1 (select it): inc ran (lit, badge 1), the again path fired, inc is queued again.
  await rows(page).filter({ hasText: 'step 1' }).click()
  await expect(node(page, 'inc')).toHaveClass(/ss-ran/)
  await expect(node(page, 'inc')).toHaveClass(/ss-next/)
  await expect(page.locator('.react-flow__edge[data-id="b:0:again"]')).toHaveClass(/ss-fired/)
  await expect(node(page, 'inc').getByLabel('Step 1')).toBeVisible()
  await tab(page, 'versions_seen')
  await expect(page.getByLabel('Why inc')).toHaveText(
    /^will run: branch:to:inc is at \d+, inc has seen \d+$/,
  )
  await tab(page, 'Writes')
  await expect(page.getByRole('list', { name: 'Task writes' })).toContainText('branch:to:inc')
  // The end: nothing runs next, and the sentence says why.
  await rows(page).first().click()
  await tab(page, 'versions_seen')
  await expect(page.getByLabel('Why inc')).toHaveText(/^will not run: /)
  await page.screenshot({ path: 'test-results/debugger-counter.png' })
})

test('a breakpoint from the canvas pauses before a node; Continue goes on', async ({ page }) => {
  await node(page, 'inc').hover()
  await page.getByRole('button', { name: 'Pause before inc' }).click()
  await expect(page.getByRole('button', { name: 'Pause before inc' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveText('Paused before inc (breakpoint)')
  await expect(rows(page).first()).toContainText('next: inc')
  await expect(rows(page).first()).toHaveAttribute('data-step', '0')
  await page.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'paused')
  await expect(rows(page).first()).toHaveAttribute('data-step', '1')
  // The context menu holds both breakpoints: turn this one off and run to the end.
  await node(page, 'inc').click({ button: 'right' })
  await page.getByRole('menuitemcheckbox', { name: /Pause before/ }).click()
  await page.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await tab(page, 'Channels')
  await expect(value(page, 'count')).toHaveText('3')
})

test('an interrupt shows its payload; a JSON reply resumes the run', async ({ page }) => {
  await page.getByRole('button', { name: 'New graph from template human approval gate' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'human approval gate' })).toBeAttached()
  await tab(page, 'Input')
  await page.getByLabel('Input request').fill('"a poem"')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveText('Waiting for a reply to interrupt() in review')
  const panel = page.getByRole('tabpanel')
  await expect(page.getByRole('tab', { name: 'Interrupt' })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await expect(panel).toContainText('Approve this draft?')
  await expect(panel).toContainText('Draft 1 for: a poem')
  await page.getByRole('textbox', { name: 'Reply' }).fill('false')
  await page.getByRole('button', { name: 'Resume' }).click()
  // Rejected: a second draft, and the question again.
  await expect(status(page)).toHaveAttribute('data-phase', 'waiting')
  await expect(panel).toContainText('Draft 2 for: a poem')
  // Edit the state first (a fork as the writer), then answer: the reply resumes the fork.
  await page.getByRole('button', { name: 'Edit state first' }).click()
  await page.getByLabel('State update').fill('{ "draft": "an edited draft" }')
  await page.getByLabel('As node').selectOption('write')
  await page.getByRole('button', { name: 'Fork from here' }).click()
  await expect(selectedRow(page)).toHaveAttribute('data-source', 'update')
  await tab(page, 'Interrupt')
  await page.getByRole('textbox', { name: 'Reply' }).fill('true')
  await page.getByRole('button', { name: 'Resume' }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await tab(page, 'Channels')
  await expect(value(page, 'approved')).toHaveText('true')
  await expect(value(page, 'draft')).toHaveText('"an edited draft"')
  await expect(value(page, 'revisions')).toHaveText('2')
})

test('the Interrupt tab shows itself while interrupt() waits, then gives back the tab the user had', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'New graph from template human approval gate' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'human approval gate' })).toBeAttached()
  await tab(page, 'Writes')
  // Run from the keyboard with the focus on the tabs: the focus follows to the tab shown.
  await page.keyboard.press('F5')
  await expect(status(page)).toHaveAttribute('data-phase', 'waiting')
  const selected = page.getByRole('tab', { selected: true })
  await expect(selected).toHaveText('Interrupt')
  await expect(selected).toBeFocused()
  // Rejected: the next interrupt keeps it there; approved, the run ends and Writes is back,
  // with the focus (Approve went with its panel), not on <body>.
  await page.getByRole('button', { name: 'Reject', exact: true }).click()
  await expect(page.getByRole('tabpanel')).toContainText('Draft 2')
  await expect(selected).toHaveText('Interrupt')
  await page.getByRole('button', { name: 'Approve', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await expect(selected).toHaveText('Writes')
  await expect(selected).toBeFocused()
  // Waiting again, then another graph opened: the tab goes back too.
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(selected).toHaveText('Interrupt')
  await page.getByRole('button', { name: 'New graph from template counter' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'counter' })).toBeAttached()
  await expect(selected).toHaveText('Writes')
  // A tab picked while it waits stays picked.
  await page.getByRole('button', { name: 'New graph from template human approval gate' }).click()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(selected).toHaveText('Interrupt')
  await tab(page, 'State')
  await page.getByRole('button', { name: 'New graph from template counter' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'counter' })).toBeAttached()
  await expect(selected).toHaveText('State')
})

test('a thread imported while it waits at an interrupt shows what is asked; it is answered once its graph is trusted', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'New graph from template human approval gate' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'human approval gate' })).toBeAttached()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'waiting')
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export thread' }).click()
  await page.getByLabel('Import a thread file').setInputFiles(await (await download).path())
  const trust = page.getByRole('button', { name: 'Trust and allow running' })
  await expect(trust).toBeVisible()
  // Not trusted: the thread's history and what it asks show; nothing can answer it yet.
  await expect(status(page)).toHaveAttribute('data-phase', 'waiting')
  await tab(page, 'Interrupt')
  const panel = page.getByRole('tabpanel')
  await expect(panel).toContainText('Approve this draft?')
  await expect(panel.getByRole('note')).toHaveText(
    'Trust the graph to answer: its code runs only then.',
  )
  for (const name of ['Resume', 'Approve', 'Reject'])
    await expect(panel.getByRole('button', { name, exact: true })).toBeDisabled()
  await trust.click()
  await expect(panel.getByRole('note')).toHaveCount(0)
  await panel.getByRole('button', { name: 'Approve', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await tab(page, 'Channels')
  await expect(value(page, 'approved')).toHaveText('true')
})

test('the first five minutes: Step, pick an older step, Fork or Replay from here; the paused run ends and Step runs on from there', async ({
  page,
}) => {
  for (let i = 0; i < 2; i++) {
    await page.keyboard.press('F10')
    await expect(rows(page)).toHaveCount(i + 2)
    await expect(status(page)).toHaveAttribute('data-phase', 'paused')
  }
  // Fork step 0 with an edited count while paused by Step.
  await rows(page).filter({ hasText: 'step 0' }).click()
  await tab(page, 'State')
  await page.getByLabel('State update').fill('{ "count": -5 }')
  await page.getByRole('button', { name: 'Fork from here' }).click()
  await expect(page.getByLabel('Fork error')).toHaveCount(0)
  await expect(rows(page)).toHaveCount(4)
  await expect(selectedRow(page)).toHaveAttribute('data-source', 'update')
  await expect(
    page.getByText(/^Ended the paused run \(its checkpoints are kept\) and forked from/),
  ).toBeVisible()
  // Step runs on from the fork, not from where the ended run paused.
  await page.keyboard.press('F10')
  await expect(rows(page)).toHaveCount(5)
  await expect(status(page)).toHaveAttribute('data-phase', 'paused')
  await tab(page, 'Channels')
  await expect(value(page, 'count')).toHaveText('-4')
  // Replay from step 0 while paused: a new run from there, to the end.
  await rows(page).filter({ hasText: 'step 0' }).click()
  await tab(page, 'State')
  await page.getByRole('button', { name: 'Replay from here' }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await expect(page.getByRole('alert')).toHaveCount(0)
  await tab(page, 'Channels')
  await expect(value(page, 'count')).toHaveText('3')
})

test('fork at step 2 with an edited value: a new branch with another end, the old one intact; diff; reload', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await expect(rows(page)).toHaveCount(5)
  const oldTip = await rows(page).first().getAttribute('data-checkpoint')

  // Picked the moment the run ends, while its last history reads are still under way.
  await rows(page).filter({ hasText: 'step 2' }).click()
  await expect(selectedRow(page)).toHaveAttribute('data-step', '2')
  await tab(page, 'State')
  await page.getByLabel('State update').fill('{ "log": ["forked"] }')
  await page.getByLabel('As node').selectOption('inc')
  await page.getByRole('button', { name: 'Fork from here' }).click()
  await expect(rows(page)).toHaveCount(6)
  // The fork is a new lane of the tree, selected, and written as an update.
  await expect(selectedRow(page)).toHaveAttribute('data-lane', '1')
  await expect(selectedRow(page)).toHaveAttribute('data-source', 'update')
  await expect(selectedRow(page)).toContainText('next: inc')

  // A bad update is refused with what and where, and nothing is written.
  await page.getByLabel('State update').fill('{ "count": "ten" }')
  await page.getByRole('button', { name: 'Fork from here' }).click()
  await expect(page.getByLabel('Fork error')).toContainText('count')
  await expect(rows(page)).toHaveCount(6)

  // Continue the fork to its end: count 3 again, but the log says where it forked.
  await page.keyboard.press('F5')
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await expect(rows(page)).toHaveCount(7)
  await tab(page, 'Channels')
  await expect(value(page, 'log')).toContainText('forked')
  const newTip = await rows(page).first().getAttribute('data-checkpoint')
  expect(newTip).not.toBe(oldTip)
  await page.screenshot({ path: 'test-results/debugger-fork.png' })
  if (process.env.UPDATE_SCREENSHOT === '1') await page.screenshot({ path: 'docs/screenshot.png' })

  // Diff the two ends: log changed, count did not.
  await tab(page, 'Diff')
  await page.getByLabel('Compare with').selectOption(oldTip as string)
  const changes = page.getByRole('list', { name: 'State changes' })
  await expect(changes).toContainText('log')
  await expect(changes).toContainText('forked')
  await expect(changes).not.toContainText('count')

  // The old branch is intact.
  await page.locator(`[data-checkpoint="${oldTip}"]`).click()
  await expect(selectedRow(page)).toHaveAttribute('data-checkpoint', oldTip as string)
  await tab(page, 'Channels')
  await expect(value(page, 'log')).not.toContainText('forked')
  await expect(value(page, 'count')).toHaveText('3')

  // A reload finds the thread and its tree unchanged.
  const before = await rows(page).evaluateAll((els) =>
    els.map((e) => [e.getAttribute('data-step'), e.getAttribute('data-lane')].join(':')),
  )
  await page.reload()
  await expect(rows(page)).toHaveCount(7)
  const after = await rows(page).evaluateAll((els) =>
    els.map((e) => [e.getAttribute('data-step'), e.getAttribute('data-lane')].join(':')),
  )
  expect(after).toEqual(before)
})

test('threads: new, switch, rename, delete; they persist across a reload; export and import', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await page.getByRole('button', { name: 'New thread' }).click()
  await expect(rows(page)).toHaveCount(0)
  await page.getByRole('button', { name: 'Rename thread' }).click()
  await page.getByLabel('Thread name').fill('second try')
  await page.keyboard.press('Enter')
  await tab(page, 'Input')
  await page.getByLabel('Input count').fill('10')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await tab(page, 'Channels')
  await expect(value(page, 'count')).toHaveText('11')
  const picker = page.getByRole('combobox', { name: 'Thread' })
  await expect(picker.locator('option')).toHaveText([/^main/, /^second try/])

  await page.reload()
  await expect(picker.locator('option')).toHaveText([/^main/, /^second try/])
  await picker.selectOption({ label: 'main (5)' })
  await expect(rows(page)).toHaveCount(5)
  await expect(value(page, 'count')).toHaveText('3')

  // Export the thread and import it: a new (untrusted) graph with the same history.
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export thread' }).click()
  const file = await (await download).path()
  await page.getByLabel('Import a thread file').setInputFiles(file)
  await expect(page.getByRole('button', { name: 'Trust and allow running' })).toBeVisible()
  // Not trusted yet: its history already shows, read only.
  await expect(rows(page)).toHaveCount(5)
  const readOnly = page.getByRole('note', { name: 'Read only' })
  await expect(readOnly).toContainText('not trusted')
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  await expect(readOnly).toHaveCount(0)
  await expect(rows(page)).toHaveCount(5)
  await expect(picker).toHaveValue(/:/)
  await tab(page, 'Channels')
  await expect(value(page, 'count')).toHaveText('3')

  // Deleting a thread removes it and its checkpoints (the original counter is listed last).
  await page.getByRole('button', { name: 'counter', exact: true }).last().click()
  await picker.selectOption({ label: 'second try (3)' })
  await page.getByRole('button', { name: 'Delete thread' }).click()
  await expect(picker.locator('option')).toHaveText([/^main/])
  await page.reload()
  await page.getByRole('button', { name: 'counter', exact: true }).last().click()
  await expect(picker.locator('option')).toHaveText(['main (5)'])
})

test('Run pressed at once after New thread runs on the new thread; a thread picked at once after a reload stays picked', async ({
  page,
}) => {
  const picker = page.getByRole('combobox', { name: 'Thread' })
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await expect(picker.locator('option')).toHaveText(['main (5)'])
  // New thread's code is fetched on its first use: held back here, so the thread is surely
  // still being made when Run is pressed.
  await page.route('**/assets/debugActions-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800))
    await route.continue()
  })
  await page.getByRole('button', { name: 'New thread' }).click()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done', { timeout: 20_000 })
  await expect(rows(page)).toHaveCount(5)
  await expect(picker.locator('option')).toHaveText(['main (5)', 'thread 2 (5)'])
  await expect(picker.locator('option:checked')).toHaveText('thread 2 (5)')

  // The reload puts back thread 2; main, picked as soon as it is listed, is the one shown.
  await page.reload()
  await expect(picker.locator('option')).toHaveCount(2)
  await picker.selectOption({ label: 'main (5)' })
  await expect(picker.locator('option:checked')).toHaveText('main (5)')
  await page.waitForTimeout(500) // the restore, were it still to come, would show here
  await expect(picker.locator('option:checked')).toHaveText('main (5)')
  await tab(page, 'Channels')
  await expect(value(page, 'count')).toHaveText('3')
})

test("a click on the open graph's own row in the library keeps its paused run and the checkpoint picked", async ({
  page,
}) => {
  await page.keyboard.press('F10')
  await expect(rows(page)).toHaveCount(2)
  await page.keyboard.press('F10')
  await expect(rows(page)).toHaveCount(3)
  await expect(status(page)).toHaveAttribute('data-phase', 'paused')
  await rows(page).filter({ hasText: 'step 0' }).click()
  await expect(selectedRow(page)).toHaveAttribute('data-step', '0')
  await page
    .getByRole('navigation', { name: 'Graphs and problems' })
    .getByRole('button', { name: 'counter', exact: true })
    .click()
  await page.waitForTimeout(500) // an opening, were it to come, would have reset them by now
  await expect(status(page)).toHaveAttribute('data-phase', 'paused')
  await expect(selectedRow(page)).toHaveAttribute('data-step', '0')
  await page.keyboard.press('F10')
  await expect(rows(page)).toHaveCount(4)
})

test('a run error names the node and the line; Open code shows it in the editor', async ({
  page,
}) => {
  const doc = {
    superstep: 1,
    name: 'broken',
    state: [{ name: 'x' }],
    nodes: [{ id: 'b', code: '(s) => {\n  const x = 1\n  return s.missing.deep\n}' }],
    edges: [{ from: '__start__', to: 'b' }],
  }
  await page.getByLabel('Import a graph file').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  })
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'failed')
  await expect(page.getByLabel('Run error')).toContainText('line 3')
  await page.getByRole('button', { name: 'Open code' }).click()
  await expect(page.getByRole('textbox', { name: 'Node id' })).toHaveValue('b')
  const editor = page
    .locator('.monaco-editor')
    .filter({ has: page.getByRole('textbox', { name: 'Code of b' }) })
  await expect(editor.locator('.squiggly-error')).toHaveCount(1, { timeout: 15_000 })
})
