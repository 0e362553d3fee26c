/**
 * Big threads in the built app, real Chromium: importing a thread file of 2,002 (and 10,002)
 * checkpoints through Import thread, exporting it again, and reopening it after a reload.
 * For each: the wall time and the main-thread long tasks (PerformanceObserver 'longtask',
 * over 50 ms) observed meanwhile; the reference is a page's JSON.parse of the same file.
 *   Run: npx vite build --outDir /tmp/dist-big && BENCH_DIST=/tmp/dist-big npx tsx bench/bigThreads.bench.ts
 * Then, on the reopened thread: switching to it from another thread until its newest
 * checkpoint is listed (goal under 300 ms), the timeline's frame times while it scrolls
 * (goal 60 frames a second), the frames from a click on a checkpoint deep in the list to
 * its channels shown (goal one or two), and the IndexedDB bytes per checkpoint
 * (`navigator.storage.estimate()` after the import, less before it).
 * BENCH_SIZES=2000,10000 picks the runs' lengths (checkpoints = steps + 2).
 * BENCH_DIST=/tmp/a,/tmp/b measures several builds one after the other in the same run.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { launchChromium, startPreview, takeLongTasks, watchLongTasks } from './browser'
import { makeThreadFile } from './threadFiles'

/** The builds to measure (BENCH_DIST, comma-separated: compared in one run). */
const DISTS = (process.env.BENCH_DIST ?? 'dist').split(',')
const SIZES = (process.env.BENCH_SIZES ?? '2000,10000').split(',').map(Number)

type Long = { tasks: number[] }

const observe = watchLongTasks
const takeLong = async (page: Page): Promise<Long> => ({
  tasks: (await takeLongTasks(page)).map(([, d]) => d),
})

const say = (label: string, ms: number, l: Long) =>
  console.log(
    `  ${label.padEnd(8)} ${String(Math.round(ms)).padStart(7)} ms   long tasks: ${l.tasks.length}, longest ${Math.round(Math.max(0, ...l.tasks))} ms, total ${Math.round(l.tasks.reduce((a, b) => a + b, 0))} ms`,
  )

const storageUsed = (page: Page) =>
  page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0)

const p = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN

/** Open, scroll and select on the reopened thread of `count` checkpoints. */
async function thread(page: Page, count: number): Promise<void> {
  const picker = page.getByRole('combobox', { name: 'Thread' })
  const big = await picker.locator('option', { hasText: `(${count})` }).getAttribute('value')
  await page.getByRole('button', { name: 'New thread' }).click()
  await page.waitForFunction(
    (v) =>
      (document.querySelector('select[aria-label="Thread"]') as HTMLSelectElement)?.value !== v,
    big,
  )
  await page.waitForTimeout(500)
  await observe(page)
  const opened = await page.evaluate(async (value) => {
    const select = document.querySelector('select[aria-label="Thread"]') as HTMLSelectElement
    const t0 = performance.now()
    select.value = value as string
    select.dispatchEvent(new Event('change', { bubbles: true }))
    while (!document.querySelector('[aria-label="Checkpoints"] [role="option"][data-step]'))
      await new Promise((r) => requestAnimationFrame(r))
    return performance.now() - t0
  }, big)
  const openLong = await takeLong(page)
  await page.waitForTimeout(500)
  await observe(page)
  // Scroll the timeline a screen's worth a frame for two seconds, as a fast wheel does.
  const frames = await page.evaluate(async () => {
    const el = document.querySelector('.timeline-scroll') as HTMLElement
    const out: number[] = []
    let last = performance.now()
    const end = last + 2000
    while (performance.now() < end) {
      el.scrollTop += 300
      await new Promise((r) => requestAnimationFrame(r))
      const now = performance.now()
      out.push(now - last)
      last = now
    }
    return out
  })
  const scrollLong = await takeLong(page)
  // A checkpoint now on screen, far from the newest: frames from the click to its channels.
  const select = await page.evaluate(async () => {
    const rows = [
      ...document.querySelectorAll('[aria-label="Checkpoints"] [role="option"][data-step]'),
    ]
    const row = rows[Math.floor(rows.length / 2)] as HTMLElement
    const before = document.querySelector('[aria-label="Channels"]')?.textContent ?? ''
    const step = row.dataset.step
    const t0 = performance.now()
    let frames = 0
    let selected = -1
    row.click()
    for (;;) {
      if (selected < 0 && row.getAttribute('aria-selected') === 'true') selected = frames
      const now = document.querySelector('[aria-label="Channels"]')?.textContent ?? ''
      if (now !== before && now !== '') break
      await new Promise((r) => requestAnimationFrame(r))
      frames++
      if (frames > 600) break
    }
    return { ms: performance.now() - t0, frames, step, selected }
  })
  const selectLong = await takeLong(page)
  // As a user clicks: the pointer rests on another row a moment first (the app may read it
  // meanwhile), then the click; frames from the click to its channels.
  const rows = page
    .getByRole('listbox', { name: 'Checkpoints' })
    .locator('[role="option"][data-step]')
  const other = rows.nth(Math.floor((await rows.count()) / 3))
  await other.hover()
  await page.waitForTimeout(300)
  const hovered = await other.evaluate(async (row) => {
    const before = document.querySelector('[aria-label="Channels"]')?.textContent ?? ''
    let frames = 0
    ;(row as HTMLElement).click()
    for (;;) {
      const now = document.querySelector('[aria-label="Channels"]')?.textContent ?? ''
      if (now !== before && now !== '') break
      await new Promise((r) => requestAnimationFrame(r))
      frames++
      if (frames > 600) break
    }
    return { frames, step: (row as HTMLElement).dataset.step }
  })
  say('open', opened, openLong)
  console.log(
    `  scroll   frame p50 ${p(frames, 0.5).toFixed(1)} ms, p95 ${p(frames, 0.95).toFixed(1)} ms, ${(1000 / (frames.reduce((a, b) => a + b, 0) / frames.length)).toFixed(0)} frames/s   long tasks: ${scrollLong.tasks.length}`,
  )
  say('select', select.ms, selectLong)
  console.log(
    `           step ${select.step}'s channels after ${select.frames} frames (the row shown selected after ${select.selected < 0 ? 'more' : select.selected})`,
  )
  console.log(
    `           hovered first, then clicked: step ${hovered.step}'s channels after ${hovered.frames} frames`,
  )
}

for (const dist of DISTS) await measure(dist)

async function measure(DIST: string) {
  console.log(`build: ${DIST}`)
  const server = await startPreview('/', DIST)
  const BASE = server.base
  try {
    const browser = await launchChromium()
    for (const steps of SIZES) {
      const file = await makeThreadFile(steps)
      const text = JSON.stringify(file, null, 2)
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      const page = await context.newPage()
      await page.goto(`${BASE}/`)
      await page.getByRole('button', { name: 'Run', exact: true }).waitFor()
      const usedBefore = await storageUsed(page)
      await observe(page)
      const parseMs = await page.evaluate((t) => {
        const t0 = performance.now()
        JSON.parse(t)
        return performance.now() - t0
      }, text)
      await takeLong(page)
      console.log(
        `${file.checkpoints.length.toLocaleString('en')} checkpoints, ${(text.length / 1e6).toFixed(1)} MB (reference: JSON.parse in the page ${parseMs.toFixed(0)} ms)`,
      )
      // From a file on disk, as a user picks one (a buffer would be decoded by script in the
      // page, a long task of Playwright's own).
      const path = join(await mkdtemp(join(tmpdir(), 'superstep-bench-')), 'big.thread.json')
      await writeFile(path, text)
      let t0 = Date.now()
      await page.getByLabel('Import a thread file').setInputFiles(path)
      await page
        .getByLabel('Message')
        .filter({ hasText: 'Imported thread' })
        .waitFor({ timeout: 600_000 })
      say('import', Date.now() - t0, await takeLong(page))
      // An imported graph is not compiled (nor its timeline read) until it is trusted.
      await page.getByRole('button', { name: 'Trust and allow running' }).click()
      await page.waitForTimeout(1000)
      await takeLong(page)

      t0 = Date.now()
      const download = page.waitForEvent('download', { timeout: 600_000 })
      await page.getByRole('button', { name: 'Export thread' }).click()
      const bytes = (await readFile(await (await download).path())).length
      say('export', Date.now() - t0, await takeLong(page))
      if (Math.abs(bytes - text.length) > text.length / 10)
        console.log(`  (export of ${bytes} bytes, the file had ${text.length})`)

      t0 = Date.now()
      await page.reload()
      await observe(page)
      const count = `(${file.checkpoints.length})`
      await page
        .getByRole('combobox', { name: 'Thread' })
        .locator('option:checked', { hasText: count })
        .waitFor({ state: 'attached', timeout: 600_000 })
      // The timeline shows the thread's newest checkpoint.
      await page
        .getByRole('listbox', { name: 'Checkpoints' })
        .getByRole('option')
        .first()
        .waitFor({ state: 'attached', timeout: 120_000 })
      await page.waitForTimeout(500)
      say('reopen', Date.now() - t0, await takeLong(page))
      const perCheckpoint = ((await storageUsed(page)) - usedBefore) / file.checkpoints.length
      await thread(page, file.checkpoints.length)
      console.log(
        `  IndexedDB ${Math.round(perCheckpoint).toLocaleString('en')} bytes per checkpoint`,
      )
      await context.close()
    }
    await browser.close()
  } finally {
    server.close()
  }
}
