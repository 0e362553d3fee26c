import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test, type Browser, type Page } from '@playwright/test'

/**
 * The code sandbox in real Chromium, on the built (minified) app: sandbox-test.html runs a
 * sandbox frame and a SandboxCodeHost on its main thread as `window.__sandbox`.
 */

type Outcome =
  | { ok: true; value: unknown; ms: number }
  | {
      ok: false
      error: { name: string; message: string; line?: number; column?: number }
      ms: number
    }

let server: Server
let hits: string[] = []
let origin = ''

test.beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '')
    res.writeHead(200, {
      'content-type': 'text/javascript',
      'access-control-allow-origin': '*',
    })
    res.end('export default 1')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
test.beforeEach(() => {
  hits = []
})

async function open(page: Page) {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto('/sandbox-test.html')
  await page.evaluate(() => window.__sandbox.ready)
  return errors
}

const runNode = (page: Page, code: string, timeoutMs?: number) =>
  page.evaluate(([c, t]) => window.__sandbox.runNode(c, { n: 1 }, t), [code, timeoutMs] as const)

const failure = (o: Outcome) => (o.ok ? null : o.error)

async function pingWorks(page: Page) {
  const before = Number(await page.locator('#pings').textContent())
  await page.click('#ping', { timeout: 1000 })
  await expect(page.locator('#pings')).toHaveText(String(before + 1), { timeout: 1000 })
}

/** CPU seconds each browser process used during the next `ms` (CDP SystemInfo). */
async function cpuDuring(browser: Browser, ms: number): Promise<Map<number, number>> {
  const cdp = await browser.newBrowserCDPSession()
  type Info = { processInfo: { id: number; cpuTime: number }[] }
  const sample = async () => ((await cdp.send('SystemInfo.getProcessInfo')) as Info).processInfo
  const before = new Map((await sample()).map((p) => [p.id, p.cpuTime]))
  await new Promise((r) => setTimeout(r, ms))
  const after = await sample()
  await cdp.detach()
  return new Map(after.map((p) => [p.id, p.cpuTime - (before.get(p.id) ?? 0)]))
}

test('runs nodes, routers, reducers and checks in the minified sandbox', async ({ page }) => {
  const errors = await open(page)
  const result = await runNode(page, '(s) => ({ n: s.n + 1, cmd: new Command({ goto: END }) })')
  expect(result).toMatchObject({
    ok: true,
    value: { kind: 'ok', output: { n: 2, cmd: { lg_name: 'Command', goto: ['__end__'] } } },
  })
  const route = await page.evaluate(() =>
    window.__sandbox.runRouter("(s) => [new Send('w', s), Command.PARENT]", { a: 1 }),
  )
  expect(route).toMatchObject({ ok: true, value: [{ lg_name: 'Send', node: 'w' }, '__parent__'] })
  const folded = await page.evaluate(() =>
    window.__sandbox.foldReducer('(a, b) => a.concat(b)', undefined, [
      [1],
      [2],
      { __overwrite__: [9] },
    ]),
  )
  expect(folded).toMatchObject({ ok: true, value: [9] })
  const interrupted = await runNode(page, "async () => { await null; return interrupt('why?') }")
  expect(interrupted).toMatchObject({ ok: true, value: { kind: 'interrupt', value: 'why?' } })
  const logs = await runNode(page, "async () => { await null; console.warn('late', 1); return 0 }")
  expect(logs).toMatchObject({ ok: true, value: { logs: [{ level: 'warn', args: ['late', 1] }] } })
  expect(await page.evaluate(() => window.__sandbox.check('7'))).toMatchObject({
    ok: true,
    value: 'TypeError: The node code of `n` evaluates to number, not a function.',
  })

  const globals = await runNode(
    page,
    '() => [typeof Worker, /^[0-9a-f-]{36}$/.test(crypto.randomUUID())]',
  )
  expect(globals).toMatchObject({ ok: true, value: { output: ['undefined', true] } })

  const rounds: number[] = []
  for (let i = 0; i < 20; i++) rounds.push(((await runNode(page, '(s) => s')) as Outcome).ms)
  rounds.sort((a, b) => a - b)
  const creates = (await page.evaluate(() => window.__sandbox.timeCreate(5))).map(
    (t) => t.firstReply,
  )
  creates.sort((a, b) => a - b)
  console.log(
    `sandbox: frame to first reply, median of 5: ${creates[2]?.toFixed(1)} ms; round trip median ${rounds[10]?.toFixed(2)} ms`,
  )
  expect(errors).toEqual([])
})

test('errors carry the line and column inside the user code', async ({ page }) => {
  await open(page)
  const code = '(s) => {\n  const a = s.n\n  return a.b.c\n}'
  expect(failure(await runNode(page, code))).toMatchObject({
    name: 'TypeError',
    line: 3,
    column: 14,
  })
  expect(failure(await runNode(page, '(s) => JSON.parse("{")'))).toMatchObject({
    name: 'SyntaxError',
    line: 1,
    column: 13,
  })
  expect(failure(await runNode(page, '(s) =>\n  s +* 1'))).toMatchObject({
    name: 'SyntaxError',
    line: 2,
  })
})

test('no storage of the page, no network, no parent', async ({ page }) => {
  await open(page)
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open('page-db', 1)
        req.onupgradeneeded = () => req.result.createObjectStore('things')
        req.onsuccess = () => {
          const tx = req.result.transaction('things', 'readwrite')
          tx.objectStore('things').put('precious', 'key')
          tx.oncomplete = () => (req.result.close(), resolve())
        }
        req.onerror = () => reject(req.error)
      }),
  )
  const idb = failure(await runNode(page, "() => indexedDB.open('page-db')"))
  expect(idb).toMatchObject({ name: 'SecurityError' })
  expect(idb?.message).toMatch(/access|denied|opaque|origin/i)
  const kept = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const req = indexedDB.open('page-db')
        req.onsuccess = () => {
          const get = req.result.transaction('things').objectStore('things').get('key')
          get.onsuccess = () => resolve(get.result)
        }
      }),
  )
  expect(kept).toBe('precious')

  const attempts = [
    `async () => { await fetch('${origin}/fetch') }`,
    `async () => { await import('${origin}/x.js') }`,
    `() => importScripts('${origin}/importScripts.js')`,
    `async () => { const x = new XMLHttpRequest(); x.open('GET', '${origin}/xhr'); x.send(); await new Promise((r, j) => { x.onload = r; x.onerror = () => j(new Error('xhr failed')) }) }`,
    `async () => { await new FontFace('f', 'url(${origin}/font)').load() }`,
    `async () => { const w = new WebSocket('${origin.replace('http', 'ws')}/ws'); await new Promise((r, j) => { w.onopen = r; w.onerror = () => j(new Error('ws failed')) }) }`,
  ]
  for (const code of attempts) {
    const out = (await runNode(page, code)) as Outcome
    expect(out.ok, code).toBe(false)
  }
  for (const code of ['() => parent.document', '() => top.location', '() => window.opener']) {
    expect(failure(await runNode(page, code))).toMatchObject({
      name: 'ReferenceError',
      message: expect.stringMatching(/is not defined/),
    })
  }
  await page.waitForTimeout(300)
  expect(hits).toEqual([])

  // The switch: with allowNetwork, fetch reaches the server (import() still does not).
  const net = (code: string) => page.evaluate((c) => window.__sandbox.network().runNode(c), code)
  const fetched = await net(`async () => (await fetch('${origin}/allowed')).status`)
  expect(fetched).toMatchObject({ ok: true, value: { output: 200 } })
  expect((await net(`async () => import('${origin}/x2.js')`)).ok).toBe(false)
  expect(hits).toEqual(['/allowed'])
})

test('a node that spins forever times out, the sandbox restarts and the page stays live', async ({
  page,
  browser,
}) => {
  await open(page)
  const spinning = runNode(page, 'async () => { await null; while (true) {} }', 1500)
  await page.waitForTimeout(100)
  await pingWorks(page) // the page answers while the sandbox spins
  // The sandbox has a process of its own (an opaque-origin frame): find it spinning.
  const during = [...(await cpuDuring(browser, 500)).entries()]
  const [spinner, spun] = during.sort((a, b) => b[1] - a[1])[0]!
  expect(spun).toBeGreaterThan(0.2)
  const out = (await spinning) as Outcome
  expect(failure(out)).toEqual({
    name: 'NodeTimeoutError',
    message:
      'Node `n` did not finish within 1.5 s: it ran too long or used memory without bound, so its sandbox was stopped (the page and other graphs are unaffected).',
  })
  expect(out.ms).toBeLessThan(2500)
  const next = await runNode(page, '(s) => s.n + 41')
  expect(next).toMatchObject({ ok: true, value: { output: 42 } })
  const stats = await page.evaluate(() => window.__sandbox.stats())
  expect(stats.restarts).toBe(1)
  expect(await page.locator('iframe').count()).toBe(1)
  await pingWorks(page)
  // Removing the frame ended the spinning worker: its process is soon gone or all but idle
  // (a spinning worker takes the whole 300 ms; the process may also host the fresh frame,
  // and the worker's thread takes a few hundred ms to wind down).
  await expect
    .poll(async () => (await cpuDuring(browser, 300)).get(spinner) ?? 0, { timeout: 5000 })
    .toBeLessThan(0.1)
  console.log(
    `sandbox: timeout fired after ${out.ms.toFixed(0)} ms (limit 1500); recovered in ${stats.recoveries[0]?.toFixed(1)} ms`,
  )
})

test('calls queued behind a busy one keep their own clock; a stray spinner is caught', async ({
  page,
}) => {
  await open(page)
  // Two parallel tasks of 700 ms of synchronous work each, with a 1 s timeout: both finish.
  const busy =
    'async (s) => { await null; const end = Date.now() + 700; while (Date.now() < end) {} return s.n }'
  const both = await page.evaluate(
    (c) => Promise.all([1, 2].map(() => window.__sandbox.runNode(c, { n: 7 }, 1000))),
    busy,
  )
  expect(both.map((o) => o.ok)).toEqual([true, true])
  // A node that finished but left a spinning timer behind: the next call cannot begin.
  const stray = await runNode(page, '() => { setTimeout(() => { while (true) {} }, 0); return 1 }')
  expect(stray).toMatchObject({ ok: true, value: { output: 1 } })
  const blocked = (await runNode(page, '() => 2', 1000)) as Outcome
  expect(failure(blocked)).toEqual({
    name: 'NodeTimeoutError',
    message:
      'Node `n` did not start within 1 s: code left running in its sandbox held it, so the sandbox was stopped.',
  })
  expect(await runNode(page, '() => 3')).toMatchObject({ ok: true, value: { output: 3 } })
})

// With a long timeout the sandbox's own process runs out of memory first (about 10 s here)
// and dies alone: the page lives and the call fails at its timeout. Playwright then marks the
// whole page as crashed (it sees the frame's target crash), so that case is not tested here.
test('allocation without bound is stopped by the timeout and the page survives', async ({
  page,
}) => {
  const errors = await open(page)
  const code =
    'async () => { await null; const a = []; while (true) a.push(new Array(1e6).fill(1)) }'
  const out = (await runNode(page, code, 2000)) as Outcome
  expect(failure(out)).toMatchObject({ name: 'NodeTimeoutError' })
  expect(out.ms).toBeLessThan(3500)
  await pingWorks(page)
  expect(await runNode(page, '() => "alive"')).toMatchObject({
    ok: true,
    value: { output: 'alive' },
  })
  expect(errors).toEqual([])
})
