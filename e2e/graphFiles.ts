import { readFileSync } from 'node:fs'
import { expect, type Page } from '@playwright/test'

/** Two nodes in a chain, with a breakpoint before the second: a run stops once on its way. */
export const TWO_STEPS = {
  superstep: 1,
  name: 'two steps',
  state: [{ name: 'log', reducer: 'append', default: [] }],
  nodes: [
    { id: 'draft', code: "() => ({ log: ['draft'] })" },
    { id: 'write', code: "() => ({ log: ['write'] })" },
  ],
  edges: [
    { from: '__start__', to: 'draft' },
    { from: 'draft', to: 'write' },
  ],
  interruptBefore: ['write'],
}

/** Picks a graph file in the library's Import, as a user does, without trusting it yet. */
export async function pickGraphFile(page: Page, doc: { name: string }): Promise<void> {
  await page.getByLabel('Import a graph file').setInputFiles({
    name: `${doc.name}.json`,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  })
  await expect(page.getByRole('heading', { level: 1, name: doc.name })).toBeAttached()
}

/** Imports a graph file and trusts it: the graph is open and Run is enabled. */
export async function importGraph(page: Page, doc: { name: string }): Promise<void> {
  await pickGraphFile(page, doc)
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
}

/**
 * The lines of a node's Monaco code editor in the inspector (the node selected first), once
 * Monaco has loaded; `.click()` on them puts the caret in the editor.
 */
export async function nodeCodeLines(page: Page, nodeId: string) {
  await page.locator(`.react-flow__node[data-id="${nodeId}"]`).click()
  const editor = page
    .locator('.monaco-editor')
    .filter({ has: page.getByRole('textbox', { name: `Code of ${nodeId}` }) })
  await expect(editor).toBeVisible({ timeout: 15_000 })
  return editor.locator('.view-lines')
}

/** The ReAct agent template's graph file. */
export const reactAgent = JSON.parse(readFileSync('examples/react-agent.json', 'utf8')) as {
  nodes: { id: string; [k: string]: unknown }[]
  [k: string]: unknown
}

/**
 * Imports the ReAct agent named `name` with its model on the OpenAI-compatible endpoint at
 * `baseUrl` (`model`: more of the model's settings), trusts it and lets it reach the network.
 */
export async function importAgentOn(
  page: Page,
  name: string,
  baseUrl: string,
  model: object = {},
): Promise<void> {
  const doc = {
    ...reactAgent,
    name,
    nodes: reactAgent.nodes.map((n) =>
      n.id === 'agent' ? { ...n, model: { provider: 'openai', baseUrl, ...model } } : n,
    ),
  }
  await pickGraphFile(page, doc)
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  await page.getByLabel('Allow network').check()
}

/** The ids of the checkpoints the timeline lists, newest first. */
export const checkpointIds = (page: Page) =>
  page
    .getByRole('listbox', { name: 'Checkpoints' })
    .getByRole('option')
    .evaluateAll((os) => os.map((o) => o.getAttribute('data-checkpoint')))
