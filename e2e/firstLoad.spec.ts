import { expect, test, type Page } from '@playwright/test'

/**
 * What loads with the page and what waits: the document's validation (zod, acorn) is a chunk
 * of its own, fetched beside the storage before the first render; dagre is fetched only when a
 * graph has a node without a position.
 */
const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`)

/** The page's scripts fetched so far, by file name without the hash. */
async function scriptsLoaded(page: Page): Promise<string[]> {
  const urls = (await page.evaluate(
    `performance.getEntriesByType('resource').map((e) => e.name)`,
  )) as string[]
  return urls
    .filter((u) => /\.js$/.test(u))
    .map((u) => new URL(u).pathname.replace(/^.*\//, '').replace(/-[\w-]{8}\.js$/, ''))
}

test('a graph with its positions opens without dagre; one without them is laid out with it', async ({
  page,
}) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await expect(node(page, 'inc')).toBeVisible()
  // The page script does not carry the validation; it came as a chunk of its own.
  const html = await (await page.request.get('/')).text()
  expect(html).not.toMatch(/graphToolsImpl|dagreLayout/)
  let loaded = await scriptsLoaded(page)
  expect(loaded).toContain('graphToolsImpl')
  expect(loaded).not.toContain('dagreLayout')

  // A chain without positions: placed by dagre, left to right, none on another.
  const doc = {
    superstep: 1,
    name: 'unplaced',
    state: [{ name: 'n', reducer: 'add', default: 0 }],
    nodes: ['a', 'b', 'c'].map((id) => ({ id, code: '(s) => ({ n: 1 })' })),
    edges: [
      { from: '__start__', to: 'a' },
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: '__end__' },
    ],
  }
  await page.getByLabel('Import a graph file').setInputFiles({
    name: 'unplaced.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(doc)),
  })
  await expect(page.getByRole('heading', { name: 'unplaced' })).toBeAttached()
  for (const id of ['__start__', 'a', 'b', 'c', '__end__'])
    await expect(node(page, id)).toBeVisible()
  const boxes = []
  for (const id of ['__start__', 'a', 'b', 'c', '__end__'])
    boxes.push((await node(page, id).boundingBox())!)
  for (let i = 1; i < boxes.length; i++)
    expect(boxes[i]!.x).toBeGreaterThanOrEqual(boxes[i - 1]!.x + boxes[i - 1]!.width)
  loaded = await scriptsLoaded(page)
  expect(loaded).toContain('dagreLayout')
})
