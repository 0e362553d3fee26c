import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, expect, test, type Browser, type Page } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium'
import { makeThreadFile } from '../bench/threadFiles'
import { importGraph } from './graphFiles'
import { storedNodeCode } from './storedRows'

/**
 * The browser killed with SIGKILL while the user types, at moments a seeded random picks:
 * after a relaunch on the same profile, the code saved is a prefix of what was typed, and
 * never shorter than what was on screen when the page last said "Saved".
 */

/** A Chromium of its own (its own process group, a persistent profile), killable at once. */
async function launch(profile: string): Promise<{ browser: Browser; kill: () => void }> {
  const child = spawn(
    CHROMIUM_PATH,
    [
      ...CHROMIUM_ARGS,
      '--headless=new',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--window-size=1280,800',
      'about:blank',
    ],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  )
  const ws = await new Promise<string>((resolve, reject) => {
    let err = ''
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString()
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(err)
      if (m?.[1]) resolve(m[1])
    })
    child.on('exit', (code) => reject(new Error(`chromium exited (${code}): ${err}`)))
  })
  const browser = await chromium.connectOverCDP(ws)
  return { browser, kill: () => process.kill(-(child.pid ?? 0), 'SIGKILL') }
}

/** mulberry32: the same "random" moments on every run. */
function seeded(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Opens the app and waits for its run button (`Continue` where a thread can go on). */
async function openApp(browser: Browser, url: string, run: string | RegExp = 'Run'): Promise<Page> {
  const context = browser.contexts()[0] ?? (await browser.newContext())
  const page = context.pages()[0] ?? (await context.newPage())
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(url)
  await expect(page.getByRole('button', { name: run, exact: true })).toBeEnabled({
    timeout: 30_000,
  })
  return page
}

test('SIGKILL while typing: what was saved is what was typed, at least what was called saved', async ({
  baseURL,
}) => {
  test.setTimeout(240_000)
  const profile = mkdtempSync(join(tmpdir(), 'superstep-crash-'))
  const random = seeded(20261203)
  try {
    for (let round = 0; round < 3; round++) {
      const { browser, kill } = await launch(profile)
      const page = await openApp(browser, baseURL ?? '')
      await expect(page.getByLabel('Save state')).toHaveText('Saved')
      const before = (await storedNodeCode(page, 'inc')) ?? ''
      await page.locator('.react-flow__node[data-id="inc"]').click()
      const editor = page
        .locator('.monaco-editor')
        .filter({ has: page.getByRole('textbox', { name: 'Code of inc' }) })
      await expect(editor).toBeVisible({ timeout: 15_000 })
      await editor.locator('.view-lines').click()
      await page.keyboard.press('ControlOrMeta+End')
      // Keys at uneven pace (some pauses long enough to commit), then a kill at a random key.
      const typed = ` /*${round}:${'abcdefghijklmnopqrstuvwxyz'.slice(0, 8 + Math.floor(random() * 18))}*/`
      let calledSaved = before
      for (const [i, ch] of [...typed].entries()) {
        await page.keyboard.type(ch)
        await page.waitForTimeout(20 + random() * (random() < 0.15 ? 1400 : 120))
        if ((await page.getByLabel('Save state').textContent()) === 'Saved')
          calledSaved = before + typed.slice(0, i + 1)
      }
      kill()
      const again = await launch(profile)
      const reopened = await openApp(again.browser, baseURL ?? '')
      await expect(reopened.getByLabel('Save state')).toHaveText('Saved')
      const saved = (await storedNodeCode(reopened, 'inc')) ?? ''
      const whole = before + typed
      expect(whole.startsWith(saved), `round ${round}: ${saved} is not typed text`).toBe(true)
      expect(saved.length, `round ${round}: less than was called saved`).toBeGreaterThanOrEqual(
        calledSaved.length,
      )
      await again.browser.close().catch(() => undefined)
      again.kill()
    }
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }
})

/**
 * A one-node cycle of 1,000 super-steps of 5 ms each: long enough to be killed in the middle
 * (a step of the page's runtime takes ~2 ms alone).
 */
const LONG_LOOP = {
  superstep: 1,
  name: 'long loop',
  state: [{ name: 'count', reducer: 'add', default: 0 }],
  nodes: [
    {
      id: 'inc',
      code: '(state) => { const t = Date.now(); while (Date.now() - t < 5) {} return { count: 1 } }',
    },
  ],
  edges: [{ from: '__start__', to: 'inc' }],
  branches: [
    {
      from: 'inc',
      router: "(state) => state.count < 1000 ? 'again' : 'done'",
      paths: { again: 'inc', done: '__end__' },
    },
  ],
}

/** The thread's checkpoints as stored: ids and parents, and the thread ids they are in. */
function storedCheckpoints(page: Page) {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('superstep')
      r.onsuccess = () => resolve(r.result)
      r.onerror = () => reject(r.error)
    })
    const rows = await new Promise<{ threadId: string; checkpointId: string; parentId?: string }[]>(
      (resolve, reject) => {
        const r = db.transaction('checkpoints').objectStore('checkpoints').getAll()
        r.onsuccess = () => resolve(r.result as never)
        r.onerror = () => reject(r.error)
      },
    )
    db.close()
    return rows.map((r) => ({ thread: r.threadId, id: r.checkpointId, parent: r.parentId }))
  })
}

/**
 * Records, in the page, every checkpoint its timeline ever shows (rows come and go as the
 * list scrolls and grows): `window.__shownCheckpoints`.
 */
function watchShownCheckpoints(page: Page) {
  return page.evaluate(() => {
    const shown = new Set<string>()
    ;(window as unknown as { __shownCheckpoints: Set<string> }).__shownCheckpoints = shown
    const look = () => {
      for (const el of document.querySelectorAll('[role="listbox"] [data-checkpoint]'))
        shown.add(el.getAttribute('data-checkpoint') as string)
    }
    new MutationObserver(look).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-checkpoint'],
    })
    look()
  })
}

const shownCheckpoints = (page: Page) =>
  page.evaluate(() => [
    ...(window as unknown as { __shownCheckpoints: Set<string> }).__shownCheckpoints,
  ])

test('SIGKILL in the middle of a run: every checkpoint shown is kept, each has its parent, and the run resumes to the same end', async ({
  baseURL,
}) => {
  test.setTimeout(180_000)
  const profile = mkdtempSync(join(tmpdir(), 'superstep-crash-'))
  const kills: (() => void)[] = [] // a failed test leaves no browser behind
  try {
    const { browser, kill } = await launch(profile)
    kills.push(kill)
    const page = await openApp(browser, baseURL ?? '')
    await importGraph(page, LONG_LOOP)
    await page.getByLabel('Recursion limit').fill('2000')
    await page.getByLabel('Recursion limit').press('Tab')
    await watchShownCheckpoints(page)
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    // Killed once the page has shown some steps as saved, well before the last: what it
    // showed is read at the last moment before the kill.
    await expect.poll(async () => (await shownCheckpoints(page)).length).toBeGreaterThan(20)
    const shown = await shownCheckpoints(page)
    kill()

    const again = await launch(profile)
    kills.push(again.kill)
    const reopened = await openApp(again.browser, baseURL ?? '', /^(Run|Continue)$/)
    await expect(reopened.getByRole('heading', { level: 1, name: 'long loop' })).toBeAttached()
    const rows = await storedCheckpoints(reopened)
    const ids = new Set(rows.map((r) => r.id))
    // Consistent: one root, every other checkpoint's parent stored.
    expect(rows.filter((r) => !r.parent)).toHaveLength(1)
    expect(rows.filter((r) => r.parent && !ids.has(r.parent))).toEqual([])
    expect(rows.length).toBeLessThan(1000)
    // Nothing the page showed as saved was lost with the tab.
    expect(shown.filter((id) => !ids.has(id))).toEqual([])
    // The recursion limit was kept with the thread: Continue reaches the end.
    await expect(reopened.getByLabel('Recursion limit')).toHaveValue('2000')
    await reopened.getByRole('button', { name: /^(Run|Continue)$/ }).click()
    await expect(reopened.getByLabel('Run status')).toHaveAttribute('data-phase', 'done', {
      timeout: 60_000,
    })
    await reopened.getByRole('tab', { name: 'Channels', exact: true }).click()
    await expect(
      reopened
        .getByRole('table', { name: 'Channels' })
        .locator('tr[data-channel="count"] td.value'),
    ).toHaveText('1000')
    await again.browser.close().catch(() => undefined)
  } finally {
    for (const k of kills) {
      try {
        k()
      } catch {
        // already gone
      }
    }
    rmSync(profile, { recursive: true, force: true })
  }
})

test('SIGKILL in the middle of an import: nothing of it is left, and the next start says so', async ({
  baseURL,
}) => {
  test.setTimeout(180_000)
  const profile = mkdtempSync(join(tmpdir(), 'superstep-crash-'))
  try {
    const { browser, kill } = await launch(profile)
    const page = await openApp(browser, baseURL ?? '')
    const file = await makeThreadFile(4000)
    await page.getByLabel('Import a thread file').setInputFiles({
      name: 'big.thread.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(file, null, 2)),
    })
    // Killed with some batches written, well before the last.
    await expect(page.getByRole('status', { name: 'Thread transfer' })).toContainText(
      /Importing thread… [1-9][\d,]* \/ 4,002/,
    )
    kill()

    const again = await launch(profile)
    const reopened = await openApp(again.browser, baseURL ?? '')
    await expect(reopened.getByRole('status', { name: 'Message' })).toContainText(
      /An interrupted import of thread run of 4000 was cleaned up/,
    )
    expect(await storedCheckpoints(reopened)).toEqual([])
    // No graph was left behind either: the library holds only what it held before.
    await expect(
      reopened
        .getByRole('navigation', { name: 'Graphs and problems' })
        .getByRole('button', { name: /cycle-4000/ }),
    ).toHaveCount(0)
    await again.browser.close().catch(() => undefined)
    again.kill()
  } finally {
    rmSync(profile, { recursive: true, force: true })
  }
})
