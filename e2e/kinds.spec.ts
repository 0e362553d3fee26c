import { expect, test, type Page } from '@playwright/test'

/** Agent node kinds in real Chromium: the ReAct template offline, kinds in the inspector, a human node. */

const status = (page: Page) => page.getByLabel('Run status')
const value = (page: Page, channel: string) =>
  page.getByRole('table', { name: 'Channels' }).locator(`tr[data-channel="${channel}"] td.value`)

/** The Input tab, in its JSON view. */
async function openInputJson(page: Page) {
  await page.getByRole('tab', { name: 'Input', exact: true }).click()
  await page
    .getByRole('group', { name: 'Input view' })
    .getByRole('button', { name: 'JSON' })
    .click()
}

test.beforeEach(async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
})

test('the ReAct template runs offline: a scripted tool call, the ToolNode, the answer', async ({
  page,
}) => {
  await page
    .getByRole('button', { name: 'New graph from template ReAct agent with a scripted model' })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: /ReAct agent/ })).toBeAttached()
  // Kinds are drawn on the canvas and edited in the inspector.
  await page.locator('.react-flow__node[data-id="agent"]').click()
  await expect(page.getByLabel('Kind of agent')).toHaveValue('model')
  await expect(page.getByLabel('Settings of agent')).toHaveValue(/"provider": "scripted"/)
  await expect(page.getByRole('textbox', { name: 'Code of agent' })).toHaveCount(0)
  await page.locator('.react-flow__pane').click({ position: { x: 5, y: 5 } })

  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await page.getByRole('tab', { name: 'Channels', exact: true }).click()
  const tree = value(page, 'messages').locator('[data-json]')
  await expect(tree).toHaveAttribute('data-json', /sunny in Paris/)
  const json = JSON.parse((await tree.getAttribute('data-json')) ?? '[]')
  expect(json.map((m: { type: string }) => m.type).slice(-3)).toEqual(['ai', 'tool', 'ai'])
  expect(json.at(-1).content).toContain('sunny in Paris')
  const tool = json.find((m: { type: string }) => m.type === 'tool')
  expect(JSON.parse(tool.content)).toEqual({ city: 'Paris', temperature: 18, sky: 'sunny' })
})

test('a human node pauses on interrupt; Approve answers it', async ({ page }) => {
  const doc = {
    superstep: 1,
    name: 'human gate',
    state: [{ name: 'draft' }, { name: 'approved' }],
    nodes: [
      { id: 'write', code: "(s) => ({ draft: 'a draft' })" },
      { id: 'review', kind: 'human', show: 'draft', writeTo: 'approved' },
    ],
    edges: [
      { from: '__start__', to: 'write' },
      { from: 'write', to: 'review' },
    ],
  }
  await page.getByLabel('Import a graph file').setInputFiles({
    name: 'gate.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  })
  await page.getByRole('button', { name: 'Trust and allow running' }).click()
  await expect(page.getByRole('group', { name: 'Node review' })).toContainText('interrupt')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'waiting')
  // Run is now Continue, wider: at 1280 px the top bar still holds on one line.
  await expect(page.getByRole('button', { name: 'Continue', exact: true })).toBeVisible()
  expect((await page.getByRole('banner').boundingBox())?.height).toBeLessThan(60)
  await expect(page.getByRole('tabpanel')).toContainText('a draft')
  await page.getByRole('button', { name: 'Approve' }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await page.getByRole('tab', { name: 'Channels', exact: true }).click()
  await expect(value(page, 'approved')).toHaveText('true')
})

test('a template opens with its first input and runs on it; the graph keeps the input it was left with', async ({
  page,
}) => {
  await page.getByRole('button', { name: 'New graph from template map-reduce with Send' }).click()
  await expect(page.getByRole('heading', { level: 1, name: /map-reduce/ })).toBeAttached()
  await openInputJson(page)
  const json = page.getByLabel('Input JSON')
  await expect(json).toHaveValue('{"subjects":["cats","dogs","owls"]}')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'done')
  await page.getByRole('tab', { name: 'Channels', exact: true }).click()
  await expect(value(page, 'jokes')).toContainText('a joke about owls')

  // Another input, left there: after a reload and a trip to another graph it is still this graph's.
  await openInputJson(page)
  await json.fill('{"subjects":["bees"]}')
  // Kept in the graph's row of IndexedDB (read directly), without counting as a change of it.
  const inputs = () =>
    page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open('superstep')
        r.onsuccess = () => resolve(r.result)
        r.onerror = () => reject(r.error)
      })
      const rows = await new Promise<{ name: string; input?: string }[]>((resolve, reject) => {
        const q = db.transaction('graphs').objectStore('graphs').getAll()
        q.onsuccess = () => resolve(q.result as { name: string; input?: string }[])
        q.onerror = () => reject(q.error)
      })
      db.close()
      return rows.filter((r) => r.name.startsWith('map-reduce')).map((r) => r.input)
    })
  await expect.poll(inputs).toEqual(['{"subjects":["bees"]}'])
  await page.reload()
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  const graphs = page.getByRole('navigation', { name: 'Graphs and problems' })
  await graphs.getByRole('button', { name: 'counter', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'counter' })).toBeAttached()
  await graphs.getByRole('button', { name: /^map-reduce with Send/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: /map-reduce/ })).toBeAttached()
  await openInputJson(page)
  await expect(json).toHaveValue('{"subjects":["bees"]}')
})
