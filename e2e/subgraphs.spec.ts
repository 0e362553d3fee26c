import { expect, test, type Page } from '@playwright/test'
import { importGraph } from './graphFiles'
import { storedGraphs } from './storedRows'

/**
 * Subgraphs on the canvas: a graph node shows what it holds and opens it on a canvas of its
 * own (double-click, Enter, breadcrumbs, Shift+Enter and Ctrl+↑ back), edits there land in the subgraph,
 * a selection becomes a subgraph, and a problem inside one opens where it is.
 */

const SUPERVISOR = {
  superstep: 1,
  name: 'supervisor',
  state: [{ name: 'notes', reducer: 'append', default: [] }],
  nodes: [
    { id: 'plan', code: "() => ({ notes: ['plan'] })", position: { x: 0, y: 0 } },
    { id: 'team', kind: 'graph', graph: 'team', position: { x: 260, y: 0 } },
    { id: 'review', code: "() => ({ notes: ['review'] })", position: { x: 520, y: 0 } },
  ],
  edges: [
    { from: '__start__', to: 'plan' },
    { from: 'plan', to: 'team' },
    { from: 'team', to: 'review' },
    { from: 'review', to: '__end__' },
  ],
  subgraphs: {
    team: {
      state: [{ name: 'notes', reducer: 'append', default: [] }],
      nodes: [
        { id: 'research', code: "() => ({ notes: ['research'] })", position: { x: 0, y: 0 } },
        { id: 'write', code: "() => ({ notes: ['write'] })", position: { x: 260, y: 0 } },
      ],
      edges: [
        { from: '__start__', to: 'research' },
        { from: 'research', to: 'write' },
        { from: 'write', to: '__end__' },
      ],
    },
  },
}

type Doc = {
  nodes: { id: string; kind?: string; graph?: string }[]
  subgraphs?: Record<string, { nodes: { id: string }[] }>
}

async function storedDoc(page: Page, name: string): Promise<Doc | undefined> {
  return (await storedGraphs(page)).find((g) => g.name === name)?.doc as Doc | undefined
}

const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`)
const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Subgraph path' })

test('a graph node opens its subgraph; an edit there is saved in it; back by breadcrumbs, Shift+Enter or Ctrl+↑', async ({
  page,
}) => {
  await page.goto('/')
  await importGraph(page, SUPERVISOR)
  const preview = page.getByRole('button', { name: 'Open subgraph team' })
  await expect(preview).toContainText('research · write')
  await expect(crumbs(page)).toHaveCount(0)

  // Double-click on the graph node: its subgraph, on a canvas of its own.
  await node(page, 'team').locator('.ss-kind').dblclick()
  await expect(crumbs(page)).toContainText('supervisor›team')
  await expect(node(page, 'research')).toBeVisible()
  await expect(node(page, 'plan')).toHaveCount(0)

  // Renamed here: the subgraph changes, the parent does not.
  await node(page, 'write').locator('.ss-label').dblclick()
  await page.getByLabel('Node name').fill('draft')
  await page.getByLabel('Node name').press('Enter')
  await expect(node(page, 'draft')).toBeVisible()
  await expect(page.getByLabel('Save state')).toHaveText('Saved')
  await expect
    .poll(async () =>
      (await storedDoc(page, 'supervisor'))?.subgraphs?.team?.nodes.map((n) => n.id),
    )
    .toEqual(['research', 'draft'])
  expect((await storedDoc(page, 'supervisor'))?.nodes.map((n) => n.id)).toEqual([
    'plan',
    'team',
    'review',
  ])

  // A reload opens the same subgraph.
  await page.reload()
  await expect(crumbs(page)).toContainText('supervisor›team')
  await expect(node(page, 'draft')).toBeVisible()

  // Shift+Enter: back to the graph, whose node shows the change.
  await node(page, 'draft').click()
  await page.keyboard.press('Shift+Enter')
  await expect(crumbs(page)).toHaveCount(0)
  await expect(preview).toContainText('research · draft')

  // Enter on the focused graph node opens it; the breadcrumb goes back.
  await node(page, 'team').focus()
  await page.keyboard.press('Enter')
  await expect(crumbs(page)).toContainText('team')
  await crumbs(page).getByRole('button', { name: 'supervisor' }).click()
  await expect(crumbs(page)).toHaveCount(0)
  await expect(node(page, 'plan')).toBeVisible()
  // Ctrl+↑ goes up too, with the focus anywhere but in a field.
  await page.getByRole('button', { name: 'Open subgraph team' }).click()
  await expect(crumbs(page)).toContainText('team')
  await page.keyboard.press('Control+ArrowUp')
  await expect(crumbs(page)).toHaveCount(0)
})

test('Group turns the selected nodes into a subgraph run by one graph node; Undo takes it back', async ({
  page,
}) => {
  const chain = {
    superstep: 1,
    name: 'chain',
    state: [{ name: 'n', reducer: 'add', default: 0 }],
    nodes: ['a', 'b', 'c', 'd'].map((id, i) => ({
      id,
      code: '() => ({ n: 1 })',
      position: { x: i * 240, y: 0 },
    })),
    edges: [
      { from: '__start__', to: 'a' },
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'd' },
      { from: 'd', to: '__end__' },
    ],
  }
  await page.goto('/')
  await importGraph(page, chain)
  await node(page, 'b').click()
  await node(page, 'c').click({ modifiers: ['Shift'] })
  await page.getByRole('button', { name: 'Group', exact: true }).click()
  await page.getByLabel('Subgraph name').fill('middle')
  await page.getByLabel('Subgraph name').press('Enter')

  await expect(node(page, 'middle')).toBeVisible()
  await expect(node(page, 'b')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Open subgraph middle' })).toContainText('b · c')
  await expect(node(page, 'middle')).toHaveClass(/selected/)
  await expect(page.getByRole('heading', { name: /Problems/ })).toContainText('0')
  await expect
    .poll(async () => (await storedDoc(page, 'chain'))?.subgraphs?.middle?.nodes.map((n) => n.id))
    .toEqual(['b', 'c'])

  await page.keyboard.press('Control+z')
  await expect(node(page, 'b')).toBeVisible()
  await expect(node(page, 'middle')).toHaveCount(0)

  // A part with two ways in is refused, saying why, and nothing changes.
  await node(page, 'a').click()
  await node(page, 'c').click({ modifiers: ['Shift'] })
  await page.getByRole('button', { name: 'Group', exact: true }).click()
  await page.getByLabel('Subgraph name').press('Enter')
  await expect(page.getByRole('alert')).toContainText('one way in')
  await expect(node(page, 'a')).toBeVisible()
  await expect(node(page, 'c')).toBeVisible()
})

test('a problem inside a subgraph is listed; a click opens its subgraph with the node selected', async ({
  page,
}) => {
  await page.goto('/')
  await importGraph(page, { ...SUPERVISOR, name: 'growing team' })
  await page.getByRole('button', { name: 'Open subgraph team' }).click()
  await expect(crumbs(page)).toContainText('team')
  // A node added inside, with nothing leading to it yet: a problem of the subgraph's.
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  await expect(page.locator('.react-flow__node')).toHaveCount(5)
  await crumbs(page).getByRole('button', { name: 'Up', exact: true }).click()
  await expect(crumbs(page)).toHaveCount(0)
  const problem = page.getByRole('button', {
    name: /In subgraph `team`: Node `\w+` is not reachable/,
  })
  await expect(problem).toBeVisible()
  const added = /Node `(\w+)`/.exec((await problem.textContent()) ?? '')?.[1] ?? ''
  await problem.click()
  await expect(crumbs(page)).toContainText('team')
  await expect(node(page, added)).toHaveClass(/selected/)
})

test('Add subgraph copies a library graph in, with a note of where it came from', async ({
  page,
}) => {
  await page.goto('/')
  await importGraph(page, SUPERVISOR)
  await page.getByLabel('Add subgraph').selectOption({ label: 'Copy of counter' })
  const preview = page.getByRole('button', { name: 'Open subgraph counter' })
  await expect(preview).toBeVisible()
  await expect
    .poll(async () => {
      const doc = (await storedDoc(page, 'supervisor')) as
        (Doc & { subgraphs?: Record<string, { description?: string }> }) | undefined
      return doc?.subgraphs?.counter?.description ?? ''
    })
    .toMatch(/^Copied from the library graph "counter" on \d{4}-\d{2}-\d{2}\./)
  // It opens like any subgraph: the counter's own nodes, on a canvas of their own.
  await preview.click()
  await expect(crumbs(page)).toContainText('counter')
  await expect(page.locator('.react-flow__node[data-id="inc"]')).toBeVisible()
})

test("a graph node's step opens its subgraph's checkpoints; one picked is drawn on the subgraph's canvas", async ({
  page,
}) => {
  await page.goto('/')
  await page
    .getByRole('button', { name: 'New graph from template supervisor with two worker agents' })
    .click()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveText('Done')
  const checkpoints = page.getByRole('listbox', { name: 'Checkpoints' })
  const toggle = checkpoints.locator('.inner-toggle', { hasText: 'researcher' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  // The researcher's own six checkpoints, under the step that ran it.
  const inner = checkpoints.locator('li.inner')
  await expect(inner).toHaveCount(6)
  await inner.filter({ hasText: 'tools' }).first().click()
  await expect(crumbs(page)).toContainText('researcher')
  await expect(node(page, 'tools').locator('.ss-ran')).toBeVisible()
  await expect(node(page, 'agent').locator('.ss-next')).toBeVisible()
  // Its channels are the subgraph's: `done` has no researcher yet at that step.
  const channels = page.getByRole('table', { name: 'Channels' })
  await expect(channels.getByRole('row', { name: /^done/ })).not.toContainText('researcher')
  // Its state is shown; forks start from the graph's own steps.
  await page.getByRole('tab', { name: 'State' }).click()
  await expect(page.getByRole('tabpanel')).toContainText('State of the subgraph at its step 2')
  await expect(page.getByRole('button', { name: 'Fork from here' })).toHaveCount(0)
  await page.getByRole('tab', { name: 'Channels' }).click()
  // Picking a step of the graph again draws the graph.
  await checkpoints.getByRole('option', { name: /^step 5/ }).click()
  await crumbs(page).getByRole('button', { name: 'Up', exact: true }).click()
  await expect(node(page, 'supervisor').locator('.ss-ran')).toBeVisible()
  await toggle.click()
  await expect(inner).toHaveCount(0)
})

test('an interrupt inside a subgraph pauses the thread, says where, and the reply resumes inside it', async ({
  page,
}) => {
  const gated = {
    superstep: 1,
    name: 'gated',
    state: [{ name: 'answer' }, { name: 'log', reducer: 'append', default: [] }],
    nodes: [
      { id: 'review', kind: 'graph', graph: 'review', position: { x: 0, y: 0 } },
      { id: 'after', code: "() => ({ log: ['after'] })", position: { x: 260, y: 0 } },
    ],
    edges: [
      { from: '__start__', to: 'review' },
      { from: 'review', to: 'after' },
      { from: 'after', to: '__end__' },
    ],
    subgraphs: {
      review: {
        state: [{ name: 'answer' }],
        nodes: [{ id: 'ask', code: "() => ({ answer: interrupt('Ship it?') })" }],
        edges: [
          { from: '__start__', to: 'ask' },
          { from: 'ask', to: '__end__' },
        ],
      },
    },
  }
  await page.goto('/')
  await importGraph(page, gated)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toContainText('Waiting for a reply')
  await page.getByRole('tab', { name: 'Interrupt' }).click()
  const ask = page.locator('.interrupt-ask')
  await expect(ask).toContainText('ask (inside review) asks:')
  await expect(ask).toContainText('Ship it?')
  await expect(page.getByLabel('Run status')).toContainText(
    'Waiting for a reply to interrupt() in ask',
  )
  // Reloaded while it waits: the question is still there to answer.
  await page.reload()
  await page.getByRole('tab', { name: 'Interrupt' }).click()
  await expect(ask).toContainText('ask (inside review) asks:')
  await expect(ask).toContainText('Ship it?')
  await ask.getByRole('button', { name: 'review' }).click()
  await expect(crumbs(page)).toContainText('review')
  await expect(node(page, 'ask')).toBeVisible()
  await page.getByLabel('Reply').fill('"yes"')
  await page.getByRole('button', { name: 'Resume', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveText('Done')
  await page.getByRole('tab', { name: 'State' }).click()
  await expect(page.getByRole('tabpanel')).toContainText('yes')
  await expect(page.getByRole('tabpanel')).toContainText('after')
})

test('Step into runs a subgraph one inner super-step at a time, drawn on its canvas; Step out runs the rest', async ({
  page,
}) => {
  await page.goto('/')
  await importGraph(page, SUPERVISOR)
  const status = page.getByLabel('Run status')
  const checkpoints = page.getByRole('listbox', { name: 'Checkpoints' })
  // Up to the step that runs `team`: input, __start__, plan.
  await page.keyboard.press('F10')
  await expect(status).toContainText('next: plan')
  await page.keyboard.press('F10')
  await expect(status).toContainText('next: team')
  const rootRows = checkpoints.locator('li:not(.inner)')
  await expect(rootRows).toHaveCount(3)

  // Into: the subgraph's first step (its __start__), on its own canvas, research next.
  await page.getByRole('button', { name: 'Step into' }).click()
  await expect(status).toContainText('Inside team at its step 0 · next: research')
  await expect(crumbs(page)).toContainText('supervisor›team')
  await expect(node(page, 'research').locator('.ss-next')).toBeVisible()
  // Its checkpoints are listed above the step still in progress; the root has none more.
  await expect(checkpoints.locator('li.inner')).toHaveCount(2)
  await expect(rootRows).toHaveCount(3)

  // Step (F10) inside: one inner super-step each, `research` lit, then `write`.
  await page.keyboard.press('F10')
  await expect(status).toContainText('at its step 1 · next: write')
  await expect(node(page, 'research').locator('.ss-ran')).toBeVisible()
  await expect(node(page, 'write').locator('.ss-next')).toBeVisible()
  const channels = page.getByRole('table', { name: 'Channels' })
  await expect(channels.locator('tr[data-channel="notes"] td.value')).toContainText('research')
  await expect(channels.locator('tr[data-channel="notes"] td.value')).not.toContainText('write')

  // Out (Shift+F11): the rest of the subgraph; the run pauses at the root's barrier.
  await page.keyboard.press('Shift+F11')
  await expect(status).toContainText('next: review')
  await expect(crumbs(page)).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Step out' })).toBeDisabled()
  await page.keyboard.press('F5')
  await expect(status).toHaveText('Done')
  await page.getByRole('tab', { name: 'State' }).click()
  await expect(page.getByRole('tabpanel')).toContainText('review')
  // The same end as a run straight through: each note once, in order.
  await expect(page.getByRole('tabpanel')).toContainText(/plan.*research.*write.*review/s)
})

test("a fork of the subgraph's latest checkpoint, made while paused inside it, is where Continue resumes it", async ({
  page,
}) => {
  await page.goto('/')
  await importGraph(page, SUPERVISOR)
  const status = page.getByLabel('Run status')
  await page.keyboard.press('F10')
  await expect(status).toContainText('next: plan')
  await page.keyboard.press('F10')
  await expect(status).toContainText('next: team')
  await page.keyboard.press('F11')
  await expect(status).toContainText('Inside team at its step 0 · next: research')
  await page.keyboard.press('F10')
  await expect(status).toContainText('at its step 1 · next: write')

  await page.getByRole('tab', { name: 'State' }).click()
  const panel = page.getByRole('tabpanel')
  await expect(panel).toContainText('State of the subgraph at its step 1')
  await page.getByLabel('State update').fill('{ "notes": ["checked"] }')
  await page.getByRole('button', { name: 'Fork from here' }).click()
  await expect(page.getByRole('status', { name: 'Message' })).toContainText(
    'Forked the subgraph team',
  )
  // The fork is the subgraph's newest checkpoint, shown; an older one is only shown.
  await expect(panel).toContainText('State of the subgraph at its step 2')
  await expect(panel).toContainText('checked')
  const checkpoints = page.getByRole('listbox', { name: 'Checkpoints' })
  await checkpoints.locator('li.inner').nth(1).click()
  await expect(panel).toContainText('Only the subgraph’s latest checkpoint can be forked')
  await expect(page.getByRole('button', { name: 'Fork from here' })).toHaveCount(0)

  // Continue: the subgraph resumes from the fork, then the graph runs to its end.
  await page.keyboard.press('F5')
  await expect(status).toHaveText('Done')
  await page.getByRole('tab', { name: 'Channels', exact: true }).click()
  // The subgraph starts from the parent's notes (plan) and hands back all of its own.
  await expect(
    page.getByRole('table', { name: 'Channels' }).locator('tr[data-channel="notes"] td.value'),
  ).toContainText(/plan.*plan.*research.*checked.*write.*review/s)
})

test("while a run goes inside a subgraph, the subgraph's canvas outlines the node running now", async ({
  page,
}) => {
  const slow = structuredClone(SUPERVISOR)
  slow.subgraphs.team.nodes[1] = {
    id: 'write',
    code: "async () => { await new Promise((r) => setTimeout(r, 2500)); return { notes: ['write'] } }",
    position: { x: 260, y: 0 },
  }
  await page.goto('/')
  await importGraph(page, slow)
  await node(page, 'team').locator('.ss-kind').dblclick()
  await expect(crumbs(page)).toContainText('team')
  await page.keyboard.press('F5')
  await expect(page.getByLabel('Run status')).toHaveText('Running…')
  await expect(node(page, 'write').locator('.ss-next')).toBeVisible()
  await expect(node(page, 'research').locator('.ss-next')).toHaveCount(0)
  await expect(page.getByLabel('Run status')).toHaveText('Done', { timeout: 15_000 })
})

test('node code calls a subgraph (subgraphs.<name>.invoke) in the page, through the sandbox', async ({
  page,
}) => {
  const caller = {
    superstep: 1,
    name: 'caller',
    state: [{ name: 'notes', reducer: 'append', default: [] }],
    nodes: [
      {
        id: 'lead',
        code: "async (s) => { const r = await subgraphs.team.invoke({ notes: ['brief'] }); return { notes: r.notes.map((n) => n.toUpperCase()) } }",
        position: { x: 0, y: 0 },
      },
    ],
    edges: [
      { from: '__start__', to: 'lead' },
      { from: 'lead', to: '__end__' },
    ],
    subgraphs: { team: SUPERVISOR.subgraphs.team },
  }
  await page.goto('/')
  await importGraph(page, caller)
  await page.keyboard.press('F5')
  await expect(page.getByLabel('Run status')).toHaveText('Done')
  await page.getByRole('tab', { name: 'Channels', exact: true }).click()
  await expect(
    page.getByRole('table', { name: 'Channels' }).locator('tr[data-channel="notes"] td.value'),
  ).toContainText(/BRIEF.*RESEARCH.*WRITE/s)
})
