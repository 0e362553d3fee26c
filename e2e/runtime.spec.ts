import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test, type Page } from '@playwright/test'

/** A graph document for the tests: nodes in a chain from START. */
function chain(
  name: string,
  nodes: { id: string; code: string }[],
  state = [{ name: 'log', reducer: 'append', default: [] }],
) {
  const ids = nodes.map((n) => n.id)
  return {
    superstep: 1,
    name,
    state,
    nodes,
    edges: [
      { from: '__start__', to: ids[0] },
      ...ids.slice(1).map((id, i) => ({ from: ids[i], to: id })),
    ],
  }
}

async function importGraph(page: Page, doc: object): Promise<void> {
  const name = (doc as { name: string }).name
  await page.getByLabel('Import a graph file').setInputFiles({
    name: `${name}.json`,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  })
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
}

async function trust(page: Page): Promise<void> {
  // Imported code does not run until the user says so.
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled()
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
}

const status = (page: Page) => page.getByLabel('Run status')
const checkpoints = (page: Page) =>
  page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
/** The shown checkpoint's state, as the Channels tab lists its fields. */
async function stateOf(page: Page, fields: string[]): Promise<Record<string, unknown>> {
  await page.getByRole('tab', { name: 'Channels', exact: true }).click()
  const table = page.getByRole('table', { name: 'Channels' })
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    const cell = table.locator(`tr[data-channel="${f}"] td.value`)
    const tree = cell.locator('[data-json]')
    const text = (await tree.count())
      ? await tree.getAttribute('data-json')
      : await cell.textContent()
    out[f] = text === 'empty' ? undefined : JSON.parse(text ?? 'null')
  }
  return out
}

test.beforeEach(async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
})

test('a graph runs to the end in the worker and its checkpoints are in IndexedDB after a reload', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await expect(checkpoints(page)).toHaveCount(5)
  await expect
    .poll(() => stateOf(page, ['count', 'log']))
    .toEqual({
      count: 3,
      log: ['inc', 'inc', 'inc'],
    })
  await page.reload()
  await expect(checkpoints(page)).toHaveCount(5)
  await expect.poll(() => stateOf(page, ['count'])).toEqual({ count: 3 })
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
})

test('Step advances exactly one super-step at a time (F10 too)', async ({ page }) => {
  const step = page.getByRole('button', { name: 'Step', exact: true })
  await step.click()
  await expect(status(page)).toHaveAttribute('data-phase', 'paused')
  await expect(checkpoints(page)).toHaveCount(2) // the input checkpoint and START's step
  await step.click()
  await expect(checkpoints(page)).toHaveCount(3)
  await expect(checkpoints(page).first()).toContainText('step 1')
  await page.keyboard.press('F10')
  await expect(checkpoints(page)).toHaveCount(4)
  await expect.poll(() => stateOf(page, ['count'])).toEqual({ count: 2 })
  await page.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await expect(checkpoints(page)).toHaveCount(5)
})

test('a node that never returns times out, names the node, and the page keeps answering', async ({
  page,
}) => {
  await importGraph(
    page,
    chain('spin', [
      { id: 'ok', code: "(s) => ({ log: ['ok'] })" },
      { id: 'spin', code: '(s) => { while (true) {} }' },
    ]),
  )
  await trust(page)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'running')
  // While the sandbox spins, the page still answers.
  await page.getByRole('tab', { name: 'Logs' }).click()
  await expect(page.getByRole('tab', { name: 'Logs' })).toHaveAttribute('aria-selected', 'true')
  await expect(status(page)).toHaveAttribute('data-phase', 'failed', { timeout: 15_000 })
  const error = page.getByLabel('Run error')
  await expect(error).toContainText('NodeTimeoutError')
  await expect(error).toContainText('spin')
  // Every checkpoint before the hang is intact, and the runtime still runs other graphs.
  await expect(checkpoints(page).first()).toContainText('next: spin')
  await page.getByRole('button', { name: 'counter', exact: true }).click()
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
})

test('code that probes IndexedDB gets an error and the saved designs are untouched', async ({
  page,
}) => {
  const probe = `async (s) => {
    const db = await new Promise((resolve, reject) => {
      const r = indexedDB.open('superstep')
      r.onsuccess = () => resolve(r.result)
      r.onerror = () => reject(r.error)
    })
    db.close()
    return { log: ['opened'] }
  }`
  await importGraph(page, chain('probe', [{ id: 'probe', code: probe }]))
  await trust(page)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'failed')
  await expect(page.getByLabel('Run error')).toContainText('probe')
  await expect(page.getByLabel('Run error')).toContainText(/SecurityError|denied|not allowed/i)
  await page.reload()
  const graphs = page.getByRole('navigation', { name: 'Graphs and problems' })
  await expect(graphs.getByRole('button', { name: 'counter', exact: true })).toBeVisible()
  await expect(graphs.getByRole('button', { name: 'probe', exact: true })).toBeVisible()
})

test('a reload in the middle of a run loses nothing checkpointed and resumes to the same end', async ({
  page,
}) => {
  const slow = (id: string) => ({
    id,
    code: `async (s) => { await new Promise((r) => setTimeout(r, 600)); return { log: ['${id}'] } }`,
  })
  const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']
  await importGraph(page, chain('slow', ids.map(slow)))
  await trust(page)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  // The live list is read at most twice a second: it may go from 4 straight to 6. Steps of
  // 0.6 s leave the run a few seconds from its end (10 checkpoints) when the page reloads.
  await expect.poll(() => checkpoints(page).count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(5)
  await page.reload()
  await page.getByRole('button', { name: 'slow', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'paused')
  // The list renders when the page has time (deferred), a frame or so after the status.
  await expect.poll(() => checkpoints(page).count()).toBeGreaterThanOrEqual(5)
  const before = await checkpoints(page).count()
  expect(before).toBeLessThan(10)
  await page.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done', { timeout: 15_000 })
  await expect.poll(() => stateOf(page, ['log'])).toEqual({ log: ids })
})

test('console output of a node is captured per task, and errors name the node and the line', async ({
  page,
}) => {
  const noisy = "(s) => { console.log('hello from', 'a', 42); return { log: ['a'] } }"
  const broken = '(s) => {\n  const x = 1\n  return s.missing.deep\n}'
  await importGraph(
    page,
    chain('noisy', [
      { id: 'a', code: noisy },
      { id: 'b', code: broken },
    ]),
  )
  await trust(page)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'failed')
  const error = page.getByLabel('Run error')
  await expect(error).toContainText('TypeError')
  await expect(error).toContainText('in node b')
  await expect(error).toContainText('line 3')
  await page.getByRole('tab', { name: 'Logs' }).click()
  await expect(page.getByRole('list', { name: 'Logs' })).toContainText('hello from a 42')
})

test('code reaches the network only once the graph owner allows it', async ({ page }) => {
  let hits = 0
  const server = createServer((_req, res) => {
    hits++
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' })
    res.end('pong')
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  try {
    const code = `async (s) => ({ log: [await (await fetch('http://127.0.0.1:${port}/')).text()] })`
    await importGraph(page, chain('net', [{ id: 'call', code }]))
    await expect(page.getByLabel('Allow network')).toBeDisabled()
    await trust(page)
    await expect(page.getByLabel('Allow network')).not.toBeChecked()
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await expect(status(page)).toHaveAttribute('data-phase', 'failed')
    await expect(page.getByLabel('Run error')).toContainText('call')
    expect(hits).toBe(0)

    await page.getByLabel('Allow network').check()
    // Run again retries the failed step from the last checkpoint.
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await expect(status(page)).toHaveAttribute('data-phase', 'done')
    await expect.poll(() => stateOf(page, ['log'])).toEqual({ log: ['pong'] })
    expect(hits).toBe(1)
  } finally {
    server.close()
  }
})
