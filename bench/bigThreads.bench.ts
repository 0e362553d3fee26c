/**
 * Big threads in the built app, real Chromium: importing a thread file of 2,002 (and 10,002)
 * checkpoints through Import thread, exporting it again, and reopening it after a reload.
 * For each: the wall time and the main-thread long tasks (PerformanceObserver 'longtask',
 * over 50 ms) observed meanwhile; the reference is a page's JSON.parse of the same file.
 *   Run: npx vite build --outDir /tmp/dist-big && BENCH_DIST=/tmp/dist-big npx tsx bench/bigThreads.bench.ts
 * BENCH_SIZES=2000,10000 picks the runs' lengths (checkpoints = steps + 2).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { launchChromium, startPreview, takeLongTasks, watchLongTasks } from './browser'
import { makeThreadFile } from './threadFiles'

const DIST = process.env.BENCH_DIST ?? 'dist'
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
    await context.close()
  }
  await browser.close()
} finally {
  server.close()
}
