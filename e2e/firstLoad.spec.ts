import { expect, test, type Page } from '@playwright/test'

/**
 * What loads with the page and what waits: the document's validation (zod, acorn) is a chunk
 * of its own, fetched beside the storage before the first render; dagre is fetched only when a
 * graph has a node without a position; the runtime worker starts once the first graph is
 * drawn, not before it; the conflict banner, the import problems and the Delete graph dialog are chunks
 * of their own; so are the templates, the edge router, the Problems list, the saving's merge
 * and the start of a run (fetched as the page starts), and the debugger's and the library's
 * less used actions (fetched on first use); the code editor is fetched once the page is idle.
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

/** Opens the app, waits for its canvas and Run, and returns the served index.html. */
async function openApp(page: Page): Promise<string> {
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  await expect(node(page, 'inc')).toBeVisible()
  return (await page.request.get('/')).text()
}

test('a graph with its positions opens without dagre; one without them is laid out with it', async ({
  page,
}) => {
  const html = await openApp(page)
  // The page script does not carry the validation; it came as a chunk of its own.
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

test('the code editor is not in the page script: it is fetched once the page is idle, before a node is selected', async ({
  page,
}) => {
  const html = await openApp(page)
  expect(html).not.toMatch(/MonacoCodeEditor|editor\.api/)
  // Nothing selected, no editor shown: Monaco's chunk arrives all the same.
  await expect
    .poll(async () => (await scriptsLoaded(page)).includes('MonacoCodeEditor'), { timeout: 20_000 })
    .toBe(true)
  await expect(page.locator('.monaco-editor')).toHaveCount(0)
  await node(page, 'inc').click()
  await expect(page.locator('.monaco-editor').first()).toBeVisible()
})

test('the canvas is drawn while the runtime worker is still loading; a Run then waits for it', async ({
  page,
}) => {
  // The worker's script is held back until the canvas shows the graph.
  let release!: () => void
  const held = new Promise<void>((r) => (release = r))
  let asked = false
  await page.route(/runtime\.worker-[\w-]+\.js$/, async (route) => {
    asked = true
    await held
    await route.continue()
  })
  await page.goto('/')
  await expect(node(page, 'inc')).toBeVisible()
  await expect.poll(() => asked).toBe(true) // it was started, and is still loading
  // A Run asked for now waits for the worker (the graph compiles first), saying it is on its
  // way, then runs as ever.
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await page.waitForTimeout(300)
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'starting')
  await expect(page.getByLabel('Run status')).toHaveText('Starting…')
  release()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
})

test('the runtime worker starts after the frame that first shows the graph, not beside its drawing', async ({
  page,
}) => {
  // Stamps when the runtime worker is made, and the first frame that shows a graph node.
  await page.addInitScript(`
    window.__workerAt = null
    window.__shownAt = null
    const Made = Worker
    window.Worker = class extends Made {
      constructor(url, options) {
        if (/runtime\\.worker/.test(String(url))) window.__workerAt ??= performance.now()
        super(url, options)
      }
    }
    const watch = () => {
      const n = document.querySelector('.react-flow__node[data-id="inc"]')
      if (n && n.getBoundingClientRect().width > 0 && getComputedStyle(n).visibility === 'visible')
        window.__shownAt = performance.now()
      else requestAnimationFrame(watch)
    }
    requestAnimationFrame(watch)
  `)
  await openApp(page)
  const { workerAt, shownAt } = (await page.evaluate(
    '({ workerAt: window.__workerAt, shownAt: window.__shownAt })',
  )) as { workerAt: number | null; shownAt: number | null }
  expect(shownAt).not.toBeNull()
  expect(workerAt).not.toBeNull()
  expect(workerAt!).toBeGreaterThan(shownAt!)
  // And it runs as ever.
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
})

test('a graph opened again compiles without a sandbox: its timeline shows while none can start', async ({
  page,
}) => {
  await openApp(page)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
  const rows = page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
  const count = await rows.count()
  expect(count).toBeGreaterThan(1)
  // From now on no sandbox frame can start: its page is held back.
  let release!: () => void
  const held = new Promise<void>((r) => (release = r))
  let frames = 0
  await page.route(/sandbox-frame[\w-]*\.html/, async (route) => {
    frames += 1
    await held
    await route.continue()
  })
  await page.reload()
  await expect(node(page, 'inc')).toBeVisible()
  // The code was checked before this load: the compile asks no sandbox, and the history reads.
  await expect(rows).toHaveCount(count)
  expect(frames).toBeLessThanOrEqual(1) // at most the spare the runtime prepares for a run
  release()
  // A run then gets its sandbox as ever.
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
  await expect(rows).not.toHaveCount(count)
})

test('the conflict banner, the import problems and the Delete dialog are chunks of their own', async ({
  page,
}) => {
  const html = await openApp(page)
  expect(html).not.toMatch(/ConflictBanner|ImportProblems|DeleteGraphDialog/)
  // The first two are fetched after the first render (they show nothing until needed), not
  // necessarily before Run is enabled...
  await expect
    .poll(() => scriptsLoaded(page))
    .toEqual(expect.arrayContaining(['ConflictBanner', 'ImportProblems']))
  let loaded = await scriptsLoaded(page)
  // ...the dialog when it first opens.
  expect(loaded).not.toContain('DeleteGraphDialog')
  await page.getByRole('button', { name: 'Delete graph' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toBeVisible()
  loaded = await scriptsLoaded(page)
  expect(loaded).toContain('DeleteGraphDialog')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(node(page, 'inc')).toBeVisible()
})

test('the templates, the edge router, the Problems list, the saving’s merge and the run’s start are chunks fetched as the page starts; the debugger’s and the library’s actions load on first use', async ({
  page,
}) => {
  const html = await openApp(page)
  expect(html).not.toMatch(
    /templates|edgeRoutes|ProblemsList|docSyncRare|runActions|debugActions|libraryActions/,
  )
  // Fetched as the page starts, not necessarily all before Run is enabled.
  await expect
    .poll(() => scriptsLoaded(page))
    .toEqual(
      expect.arrayContaining([
        'templates',
        'edgeRoutes',
        'ProblemsList',
        'docSyncRare',
        'runActions',
      ]),
    )
  let loaded = await scriptsLoaded(page)
  expect(loaded).not.toContain('debugActions')
  expect(loaded).not.toContain('libraryActions')
  await expect(page.getByRole('heading', { name: 'Problems' })).toBeVisible()

  // A run goes as ever, and needs neither.
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'done')
  loaded = await scriptsLoaded(page)
  expect(loaded).not.toContain('debugActions')
  expect(loaded).not.toContain('libraryActions')

  // A new thread (the debugger's), then a duplicated graph (the library's).
  await page.getByRole('button', { name: 'New thread' }).click()
  await expect(page.getByLabel('Run status')).toHaveAttribute('data-phase', 'idle')
  expect(await scriptsLoaded(page)).toContain('debugActions')
  await page.getByRole('button', { name: 'Duplicate' }).click()
  await expect(page.getByRole('heading', { name: /copy/ })).toBeAttached()
  expect(await scriptsLoaded(page)).toContain('libraryActions')
  await expect(node(page, 'inc')).toBeVisible()
})

test("the library's times are formatted after the first frame that draws its rows, not in it (Intl's first formatter costs a cold page about 25 ms)", async ({
  page,
}) => {
  // Stamps the first Intl.DateTimeFormat made, and the first frame after the library's first
  // row is in the document.
  await page.addInitScript(`
    window.__intlAt = null
    window.__rowFrameAt = null
    const Make = Intl.DateTimeFormat
    Intl.DateTimeFormat = function (...args) {
      window.__intlAt ??= performance.now()
      return new Make(...args)
    }
    Intl.DateTimeFormat.prototype = Make.prototype
    new MutationObserver((_, mo) => {
      if (!document.querySelector('nav[aria-label="Graphs and problems"] li time')) return
      mo.disconnect()
      requestAnimationFrame(() => (window.__rowFrameAt = performance.now()))
    }).observe(document, { subtree: true, childList: true })
  `)
  await openApp(page)
  const time = page.getByRole('navigation', { name: 'Graphs and problems' }).locator('li time')
  await expect(time.first()).toHaveText(/\d{1,2}:\d{2}/)
  const { intlAt, rowFrameAt } = (await page.evaluate(
    '({ intlAt: window.__intlAt, rowFrameAt: window.__rowFrameAt })',
  )) as { intlAt: number | null; rowFrameAt: number | null }
  expect(rowFrameAt).not.toBeNull()
  expect(intlAt).not.toBeNull()
  expect(intlAt!).toBeGreaterThan(rowFrameAt!)
})
