import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium'

/** The system Chromium, headless, with the flags this machine needs (never a download). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, () => {
      const addr = srv.address()
      const port = typeof addr === 'object' && addr ? addr.port : 0
      srv.close(() => resolve(port))
    })
  })
}

async function waitForServer(url: string, ms = 20_000) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`vite preview did not answer at ${url}`)
}

/**
 * `vite preview` of the built app (`outDir`, default `dist`) on a free port, answering at `page` before this resolves.
 * vite itself, not through npx, so that `close()` stops the server and not only a wrapper.
 */
export async function startPreview(
  page = '/',
  outDir?: string,
): Promise<{ base: string; close(): void }> {
  const port = await freePort()
  const root = fileURLToPath(new URL('..', import.meta.url))
  const vite = fileURLToPath(new URL('../node_modules/vite/bin/vite.js', import.meta.url))
  const server = spawn(
    process.execPath,
    [
      vite,
      'preview',
      '--port',
      String(port),
      '--strictPort',
      ...(outDir ? ['--outDir', outDir] : []),
    ],
    {
      stdio: 'ignore',
      cwd: root,
    },
  )
  const base = `http://localhost:${port}`
  try {
    await waitForServer(`${base}${page}`)
  } catch (e) {
    server.kill()
    throw e
  }
  return { base, close: () => server.kill() }
}

/** A main-thread long task (over 50 ms): when it started (ms since navigation) and how long. */
export type LongTask = [start: number, duration: number]

/**
 * Page script (a string: tsx would wrap a function's inner functions in a `__name` helper):
 * records every long task in `window.__long`; `buffered` also takes those already past.
 */
export const watchLongTasksScript = (buffered: boolean) => `
  window.__long = []
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration])
  }).observe({ type: 'longtask', buffered: ${buffered} })
`

/** Starts recording the page's long tasks from now on. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(watchLongTasksScript(false))
}

/** The long tasks recorded since the last take (they are cleared). */
export async function takeLongTasks(page: Page): Promise<LongTask[]> {
  return (await page.evaluate('window.__long.splice(0)')) as LongTask[]
}
