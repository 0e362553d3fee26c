/**
 * The canvas at scale, in real Chromium against the built app: a generated 1,000-node,
 * 1,500-edge document in canvas-test.html (`?bench=1000`). Prints the time to first render
 * (navigation start to the first node visible, measured) and the frame time while dragging a
 * node through 60 mouse steps: requestAnimationFrame deltas and, per mouse move, the time
 * from the event to the end of the next frame (input handling, React, layout and paint), to
 * the dragged node's element changing, and to the end of the frame that draws that change.
 * Run: npm run build:test && npx tsx bench/canvas.bench.ts [nodes]
 *   BENCH_DIST (dist): the build to measure; several, comma-separated, compare builds in one run.
 *   BENCH_PROFILE=1 also prints the main thread's top self times during the drag.
 *   BENCH_ZOOM=0.1 zooms out to that zoom (Ctrl+wheel) before the drag (default: fit view).
 *   BENCH_TRACE=1 also prints the main thread's top trace events (script, style, layout,
 *   paint) by self time during the drag.
 */
import type { Page } from 'playwright-core'
import { launchChromium, startPreview } from './browser'
import { startProfile, topSelfTimes } from './cpuProfile'
import { startTrace, topTraceSelfTimes } from './traceSummary'

const NODES = Number(process.argv[2] ?? 1000)
const STEPS = 60
const DISTS = (process.env.BENCH_DIST ?? 'dist').split(',')
const PROFILE = process.env.BENCH_PROFILE === '1'
const TRACE = process.env.BENCH_TRACE === '1'
const ZOOM = Number(process.env.BENCH_ZOOM ?? 0)
/** Auto layout after the drag (elk in a worker above 150 nodes); BENCH_LAYOUT=0 skips it. */
const LAYOUT = process.env.BENCH_LAYOUT !== '0' && NODES > 150

/**
 * Presses Auto layout and waits for the progress line to go: the time from the press, the
 * nodes the one moveNodes edit moved (or the failure shown), and the main thread's long tasks
 * meanwhile (the canvas is meant to stay usable).
 */
async function autoLayout(page: Page) {
  await page.evaluate(`
    window.__longTasks = []
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push(e.duration)
    }).observe({ type: 'longtask' })
  `)
  const tools = page.getByRole('toolbar', { name: 'Canvas tools' })
  const editsBefore = await page.evaluate(() => window.__canvas.edits.length)
  const started = Date.now()
  await tools.getByRole('button', { name: 'Auto layout', exact: true }).click()
  await page.getByRole('status', { name: 'Layout progress' }).waitFor()
  await page
    .getByRole('status', { name: 'Layout progress' })
    .waitFor({ state: 'detached', timeout: 300_000 })
  const elapsed = Date.now() - started
  const alert = tools.getByRole('alert')
  const failed = (await alert.count()) > 0 ? await alert.first().textContent() : null
  const { moved, longTasks } = await page.evaluate((before) => {
    const w = window as unknown as { __longTasks: number[] }
    const edit = window.__canvas.edits.slice(before).find((e) => e.type === 'moveNodes') as
      { moves: unknown[] } | undefined
    return { moved: edit?.moves.length ?? 0, longTasks: w.__longTasks }
  }, editsBefore)
  return {
    ms: elapsed,
    failed,
    moved,
    longTasks: longTasks.length,
    longest: Math.max(0, ...longTasks),
  }
}

const viewZoom = (page: Page) =>
  page
    .locator('.react-flow__viewport')
    .evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a)

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN
  return { median: at(0.5), p95: at(0.95), n: s.length }
}
const ms = (v: number) => `${v.toFixed(1)} ms`

for (const dist of DISTS) await measure(dist)

async function measure(dist: string) {
  const server = await startPreview('/canvas-test.html', dist)
  try {
    const { base } = server
    const browser = await launchChromium()
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
    page.on('pageerror', (e) => console.error('page error:', e.stack))
    // First render: the first frame in which a node is laid out and visible.
    // (Page scripts are strings: tsx would wrap their inner functions in a `__name` helper.)
    await page.addInitScript(`
    const poll = () => {
      const el = document.querySelector('.react-flow__node')
      if (el && getComputedStyle(el).visibility === 'visible') window.__firstRender = performance.now()
      else requestAnimationFrame(poll)
    }
    requestAnimationFrame(poll)
  `)
    await page.goto(`${base}/canvas-test.html?bench=${NODES}`)
    await page.waitForFunction(() => (window as { __firstRender?: number }).__firstRender, null, {
      timeout: 60_000,
    })
    const firstRender = await page.evaluate(
      () => (window as unknown as { __firstRender: number }).__firstRender,
    )
    const phases = (await page.evaluate(`(() => {
    const nav = performance.getEntriesByType('navigation')[0]
    return {
      scriptStart: performance.getEntriesByName('canvas-test:start')[0]?.startTime ?? NaN,
      validate: performance.getEntriesByName('validate')[0]?.duration ?? NaN,
      firstCommit: performance.getEntriesByName('canvas-test:commit')[0]?.startTime ?? NaN,
      domContentLoaded: nav.domContentLoadedEventEnd,
    }
  })()`)) as Record<'scriptStart' | 'validate' | 'firstCommit' | 'domContentLoaded', number>
    await page.waitForTimeout(500)
    if (ZOOM) {
      // Ctrl+wheel at the middle of the canvas down to the zoom asked for.
      await page.mouse.move(640, 400)
      await page.keyboard.down('Control')
      for (let i = 0; i < 60 && (await viewZoom(page)) > ZOOM; i++) {
        await page.mouse.wheel(0, 100)
        await page.waitForTimeout(50)
      }
      await page.keyboard.up('Control')
      await page.waitForTimeout(500)
    }
    const rendered = await page.locator('.react-flow__node').count()

    // A node near the middle of the screen.
    const target = await page.evaluate(() => {
      const all = [...document.querySelectorAll<HTMLElement>('[data-node-id^="n"]')]
      const best = all
        .map((el) => ({ id: el.dataset.nodeId ?? '', r: el.getBoundingClientRect() }))
        .filter(
          // Room on the right for the drag, clear of the edge where React Flow pans.
          ({ r }) => r.width > 0 && r.left > 300 && r.right < 820 && r.top > 200 && r.bottom < 600,
        )
      const pick = best[0]
      if (!pick) throw new Error('no node in the middle of the screen')
      return { id: pick.id, x: pick.r.left + pick.r.width / 2, y: pick.r.top + pick.r.height / 2 }
    })
    await page.evaluate(`(() => {
    window.__deltas = []
    window.__latency = []
    window.__benchRecording = true
    // Long animation frames (over 50 ms, render and paint included) while the drag goes on.
    window.__loaf = []
    new PerformanceObserver((list) => {
      if (window.__benchRecording) for (const e of list.getEntries()) window.__loaf.push(e.duration)
    }).observe({ type: 'long-animation-frame' })
    let last = 0
    const frame = (t) => {
      window.__deltas.push(t - last)
      last = t
      if (window.__benchRecording) requestAnimationFrame(frame)
    }
    requestAnimationFrame((t) => {
      last = t
      requestAnimationFrame(frame)
    })
    document.addEventListener('pointermove', () => {
      const t0 = performance.now()
      requestAnimationFrame(() => setTimeout(() => window.__latency.push(performance.now() - t0)))
      window.__pending.push(t0)
    }, true)
    // Per move, the time until the dragged node's element moves (its style changes): events
    // not yet drawn are answered by the first change after them.
    // And per move, the time until the frame that draws the moved node has been rendered
    // (a task queued from that frame's requestAnimationFrame runs after its paint).
    window.__pending = []
    window.__shown = []
    window.__painted = []
    new MutationObserver(() => {
      const now = performance.now()
      const answered = window.__pending
      for (const t0 of answered) window.__shown.push(now - t0)
      window.__pending = []
      requestAnimationFrame(() => setTimeout(() => {
        const end = performance.now()
        for (const t0 of answered) window.__painted.push(end - t0)
      }))
    }).observe(document.querySelector('[data-node-id=${JSON.stringify(target.id)}]'), {
      attributes: true,
      attributeFilter: ['style'],
    })
  })()`)
    const editsBefore = await page.evaluate(() => window.__canvas.edits.length)
    const stopProfile = PROFILE ? await startProfile(page) : null
    const stopTrace = TRACE ? await startTrace(browser, page) : null
    await page.mouse.move(target.x, target.y)
    await page.mouse.down()
    // Each step moves the node by more than the snap grid (15 flow px at the view's zoom), so
    // every move has something to draw: a move within one grid cell changes nothing, and
    // would be counted until the next move that does.
    const zoom = await viewZoom(page)
    const step = Math.max(4, Math.ceil(16 * zoom))
    for (let i = 1; i <= STEPS; i++)
      await page.mouse.move(target.x + i * step, target.y + Math.floor(i / 2) * step)
    // The profile and trace cover the moves only, not the drop (which saves the document).
    await page.waitForTimeout(100)
    const profile = stopProfile ? await stopProfile() : null
    const trace = stopTrace ? await stopTrace() : null
    await page.mouse.up()
    await page.waitForTimeout(100)
    const result = await page.evaluate(() => {
      const w = window as unknown as {
        __deltas: number[]
        __latency: number[]
        __benchRecording: boolean
        __loaf: number[]
        __shown: number[]
        __painted: number[]
      }
      w.__benchRecording = false
      return {
        deltas: w.__deltas,
        latency: w.__latency,
        loaf: w.__loaf,
        shown: w.__shown,
        painted: w.__painted,
        edits: window.__canvas.edits,
      }
    })
    const newEdits = result.edits.slice(editsBefore)
    const deltas = stats(result.deltas.slice(1))
    const latency = stats(result.latency)
    const line = '-'.repeat(78)
    console.log(line)
    console.log(`build: ${dist}`)
    console.log(
      `canvas, ${NODES} nodes / ${Math.round(NODES * 1.5)} edges (software rendering), ${rendered} node elements rendered`,
    )
    console.log(
      `first render (navigation to first node visible): ${ms(firstRender)}  (target < 1500 ms: ${firstRender < 1500 ? 'met' : 'MISSED'})`,
    )
    console.log(
      `  of which: script start ${ms(phases.scriptStart)}, validateGraph ${ms(phases.validate)} (the page validates like the app), first React commit ${ms(phases.firstCommit)}`,
    )
    console.log(
      `drag of ${target.id}, ${STEPS} steps of ${step} px at zoom ${zoom.toFixed(2)}: rAF delta median ${ms(deltas.median)}, p95 ${ms(deltas.p95)} over ${deltas.n} frames`,
    )
    console.log(
      `  per move, event to end of next frame: median ${ms(latency.median)}, p95 ${ms(latency.p95)}  (target < 16 ms: ${latency.p95 < 16 ? 'met' : latency.median < 16 ? 'median met, p95 MISSED' : 'MISSED'})`,
    )
    const shown = stats(result.shown)
    console.log(
      `  per move, event to the dragged node moved in the DOM: median ${ms(shown.median)}, p95 ${ms(shown.p95)} over ${shown.n} moves`,
    )
    const painted = stats(result.painted)
    console.log(
      `  per move, event to the frame that draws the moved node: median ${ms(painted.median)}, p95 ${ms(painted.p95)} over ${painted.n} moves  (target < 16.7 ms: ${painted.p95 < 16.7 ? 'met' : painted.median < 16.7 ? 'median met, p95 MISSED' : 'MISSED'})`,
    )
    console.log(
      `    slowest five: ${[...result.shown]
        .sort((a, b) => b - a)
        .slice(0, 5)
        .map((v) => v.toFixed(0))
        .join(', ')} ms; first move ${ms(result.shown[0] ?? NaN)}; drawn, slowest five: ${[
        ...result.painted,
      ]
        .sort((a, b) => b - a)
        .slice(0, 5)
        .map((v) => v.toFixed(0))
        .join(', ')} ms`,
    )
    console.log(
      `  long animation frames (over 50 ms) during the drag: ${result.loaf.length}, longest ${ms(Math.max(0, ...result.loaf))}, total ${ms(result.loaf.reduce((a, b) => a + b, 0))}`,
    )
    console.log(
      `  edits emitted by the drag: ${newEdits.map((e) => e.type).join(', ') || 'none'} (expected: one moveNodes)`,
    )
    if (profile) {
      console.log('  main thread during the drag, top self times:')
      for (const [fn, t] of await topSelfTimes(profile, dist, 15))
        console.log(`    ${ms(t).padStart(9)}  ${fn}`)
    }
    if (trace) {
      console.log('  main thread during the drag, top trace events by self CPU time:')
      for (const [name, t, n] of topTraceSelfTimes(trace, 15))
        console.log(`    ${ms(t).padStart(9)}  ${name} (${n}×)`)
    }
    if (LAYOUT) {
      const laid = await autoLayout(page)
      console.log(
        `auto layout (elk in a worker, progress line shown): ${(laid.ms / 1000).toFixed(1)} s, ${laid.failed ? `FAILED: ${laid.failed}` : `${laid.moved} nodes moved in one edit`}; main thread meanwhile: ${laid.longTasks} tasks over 50 ms, longest ${ms(laid.longest)}`,
      )
    }
    console.log(line)
    await browser.close()
  } finally {
    server.close()
  }
}
