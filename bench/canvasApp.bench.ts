/**
 * A drag on a big graph in the app itself (issue 18, "big graphs"), where canvas.bench.ts
 * drags in canvas-test.html (the canvas alone, fitted): the same generated graph
 * (src/ui/canvas/benchDoc.ts) imported into the built app, dragged zoomed out (low detail)
 * and zoomed in past LOW_DETAIL_ZOOM (full detail, its edges routed). Per move, the time from
 * the pointer event to the end of the next frame; for the first drag after the graph opens
 * (the first selection opens the inspector) and for a later drag.
 *   Run: npm run build:test && npx tsx bench/canvasApp.bench.ts [nodes]   (default 5000)
 *   BENCH_DIST (dist): the build, or builds to compare, comma-separated.
 *   BENCH_PROFILE=1: a CPU profile of each later drag (BENCH_FIRST=1: the first too), its
 *   top self times by source line (BENCH_TOP of them, default 20).
 *   BENCH_TRACE=1: a trace of each later drag, the main thread's top events (script, style,
 *   layout, paint, the compositor) by self time.
 */
import { rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { benchDoc } from '../src/ui/canvas/benchDoc'
import { launchChromium, startPreview } from './browser'
import { startProfile, topSelfTimes } from './cpuProfile'
import { startTrace, topTraceSelfTimes } from './traceSummary'

const NODES = Number(process.argv[2] ?? 5000)
const DISTS = (process.env.BENCH_DIST ?? 'dist').split(',')
const MOVES = 40
const ZOOMS = [0.3, 0.45]
const FRAME = 1000 / 60
const PROFILE = process.env.BENCH_PROFILE === '1'
const TRACE = process.env.BENCH_TRACE === '1'

/** Per pointer move, the event to the end of the next frame (`window.__moves`). */
const RECORDER = `
  window.__moves = []
  document.addEventListener('pointermove', () => {
    const t0 = performance.now()
    requestAnimationFrame(() => setTimeout(() => window.__moves.push(performance.now() - t0)))
  }, true)
`

const zoomOf = (page: Page) =>
  page
    .locator('.react-flow__viewport')
    .evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a)

/** Ctrl+wheel over the canvas until the view is within 5% of `zoom`. */
async function zoomTo(page: Page, zoom: number) {
  await page.mouse.move(600, 300)
  for (let i = 0; i < 40; i++) {
    const now = await zoomOf(page)
    if (Math.abs(now - zoom) / zoom < 0.05) break
    await page.keyboard.down('Control')
    await page.mouse.wheel(0, now > zoom ? 50 : -50)
    await page.keyboard.up('Control')
    await page.waitForTimeout(150)
  }
  await page.waitForTimeout(800)
}

/** Drags a node near the middle MOVES steps to the right: ms per move, event to frame. */
async function drag(page: Page): Promise<number[]> {
  const at = await page.evaluate(() => {
    const boxes = [...document.querySelectorAll('.react-flow__node')]
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.left > 300 && r.right < 820 && r.top > 200 && r.bottom < 600)
    const r = boxes[0]
    if (!r) throw new Error('no node in the middle of the screen')
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 }
  })
  await page.evaluate('window.__moves = []')
  await page.mouse.move(at.x, at.y)
  await page.mouse.down()
  for (let i = 1; i <= MOVES; i++) await page.mouse.move(at.x + i * 6, at.y + Math.floor(i / 2) * 6)
  await page.waitForTimeout(200)
  await page.mouse.up()
  const moves = (await page.evaluate('window.__moves')) as number[]
  await page.keyboard.press('Escape') // the node unselected
  await page.waitForTimeout(800)
  return moves
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? NaN
const ms = (v: number) => v.toFixed(0)

const file = join(tmpdir(), `superstep-canvas-app-${NODES}.json`)
await writeFile(file, JSON.stringify(benchDoc(NODES)))
try {
  for (const dist of DISTS) {
    const server = await startPreview('/', dist)
    const browser = await launchChromium()
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      page.on('pageerror', (e) => console.error('  page error:', e.message))
      await page.addInitScript(RECORDER)
      await page.goto(`${server.base}/`)
      await page.getByRole('button', { name: 'Run', exact: true }).waitFor()
      await page.getByLabel('Import a graph file').setInputFiles(file)
      await page.getByRole('button', { name: 'Trust and allow running' }).click()
      await page.locator('.react-flow__node').first().waitFor({ timeout: 60_000 })
      await page.waitForTimeout(2000)
      console.log(
        `${dist}: a drag in the app, ${NODES.toLocaleString('en')} nodes, ${MOVES} moves; per move, the event to the end of the next frame (ms)`,
      )
      for (const zoom of ZOOMS) {
        await zoomTo(page, zoom)
        const drawn = await page.locator('.react-flow__node').count()
        for (const which of ['first', 'later'] as const) {
          if (which === 'later' || zoom === ZOOMS[0]) {
            const stop =
              PROFILE && (which === 'later' || process.env.BENCH_FIRST === '1')
                ? await startProfile(page)
                : null
            const stopTrace = TRACE && which === 'later' ? await startTrace(browser, page) : null
            const moves = await drag(page)
            const profile = stop
              ? await topSelfTimes(await stop(), dist, Number(process.env.BENCH_TOP ?? 20))
              : []
            const trace = stopTrace ? topTraceSelfTimes(await stopTrace(), 20) : []
            const within = moves.filter((m) => m <= FRAME).length
            console.log(
              `  zoom ${(await zoomOf(page)).toFixed(2)} (${drawn} nodes drawn), ${which === 'first' ? 'first drag after opening' : 'a later drag'}: median ${ms(pct(moves, 50))}, p95 ${ms(pct(moves, 95))}, ${within}/${moves.length} within a frame; first moves ${moves.slice(0, 4).map(ms).join(', ')}`,
            )
            for (const [where, t] of profile)
              console.log(`      ${t.toFixed(0).padStart(5)} ms  ${where}`)
            for (const [name, t, n] of trace)
              console.log(`      ${t.toFixed(0).padStart(5)} ms  ${name} (${n})`)
          }
        }
      }
    } finally {
      await browser.close()
      server.close()
    }
  }
} finally {
  await rm(file, { force: true })
}
