/**
 * A CPU profile of the page's main thread (Chromium's profiler over CDP), summed by function
 * and mapped back to the source through the build's source maps: the top self times, for a
 * bench to print where a run's time goes.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping'
import type { Browser, CDPSession, Page } from 'playwright-core'

interface ProfileNode {
  id: number
  children?: number[]
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** Starts the profiler on `page`; the returned function stops it and returns the profile. */
export async function startProfile(page: Page): Promise<() => Promise<Profile>> {
  const cdp: CDPSession = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 })
  await cdp.send('Profiler.start')
  return async () => {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile }
    await cdp.detach()
    return profile
  }
}

/** The `top` functions by self time (ms), each named by its source file and line. */
export async function topSelfTimes(profile: Profile, dist: string, top = 20) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<number, number>()
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000)
  })
  const maps = new Map<string, TraceMap | null>()
  const where = async (f: ProfileNode['callFrame']): Promise<string> => {
    const file = /\/assets\/[^/?#]+\.js/.exec(f.url)?.[0]
    if (!file) return `${f.functionName || '(anonymous)'} ${f.url ? f.url.slice(-40) : ''}`
    if (!maps.has(file)) {
      try {
        maps.set(file, new TraceMap(await readFile(join(dist, `${file}.map`), 'utf8')))
      } catch {
        maps.set(file, null)
      }
    }
    const map = maps.get(file)
    if (!map) return `${f.functionName} ${file}:${f.lineNumber + 1}`
    const pos = originalPositionFor(map, { line: f.lineNumber + 1, column: f.columnNumber })
    const source = pos.source?.replace(/^.*node_modules\//, '~').replace(/^(\.\.\/)+/, '')
    return `${pos.name ?? (f.functionName || '(anonymous)')} ${source}:${pos.line}`
  }
  // A built-in (postMessage, IndexedDB's put: no script of its own) is named with its caller.
  const parent = new Map<number, ProfileNode>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n)
  const total = new Map<string, number>()
  for (const [id, ms] of self) {
    const node = byNode.get(id)
    if (!node) continue
    let key = await where(node.callFrame)
    const caller = parent.get(id)
    if (!node.callFrame.url && node.callFrame.functionName && caller?.callFrame.url)
      key += ` <- ${await where(caller.callFrame)}`
    total.set(key, (total.get(key) ?? 0) + ms)
  }
  return [...total].sort((a, b) => b[1] - a[1]).slice(0, top)
}

/**
 * Starts the profiler in the page's dedicated worker whose URL matches `url` (CDP's
 * non-flat target sessions: a worker is not a Playwright page); returns a stop function.
 */
export async function startWorkerProfile(
  page: Page,
  url: RegExp,
): Promise<() => Promise<Profile | null>> {
  const cdp: CDPSession = await page.context().newCDPSession(page)
  let sessionId: string | undefined
  cdp.on('Target.attachedToTarget', (e) => {
    if (url.test(e.targetInfo.url) && sessionId === undefined) sessionId = e.sessionId
  })
  await cdp.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: false,
    flatten: false,
  })
  for (let i = 0; i < 50 && sessionId === undefined; i++)
    await new Promise((r) => setTimeout(r, 20))
  if (sessionId === undefined) return () => Promise.resolve(null)
  return profileTarget(cdp, sessionId)
}

/**
 * Starts the profiler in the browser's first dedicated worker whose URL matches `url`,
 * wherever it runs: a sandbox's `blob:` worker lives in a frame of another process, which
 * the page's own session does not reach. Returns a stop function.
 */
export async function startBrowserWorkerProfile(
  browser: Browser,
  url: RegExp,
): Promise<() => Promise<Profile | null>> {
  const cdp = await browser.newBrowserCDPSession()
  const { targetInfos } = (await cdp.send('Target.getTargets')) as {
    targetInfos: { targetId: string; type: string; url: string }[]
  }
  const target = targetInfos.find((t) => t.type === 'worker' && url.test(t.url))
  if (!target) return () => Promise.resolve(null)
  const { sessionId } = (await cdp.send('Target.attachToTarget', {
    targetId: target.targetId,
    flatten: false,
  })) as { sessionId: string }
  return profileTarget(cdp, sessionId)
}

/** Runs the profiler in the target `sessionId` of `cdp` (a non-flat session) until stopped. */
async function profileTarget(
  cdp: CDPSession,
  sessionId: string,
): Promise<() => Promise<Profile | null>> {
  let seq = 0
  const waiting = new Map<number, (result: unknown) => void>()
  cdp.on('Target.receivedMessageFromTarget', (e) => {
    const msg = JSON.parse(e.message) as { id?: number; result?: unknown }
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result)
  })
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = ++seq
      waiting.set(id, resolve)
      void cdp.send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id, method, params }),
      })
    })
  await send('Profiler.enable')
  await send('Profiler.setSamplingInterval', { interval: 500 })
  await send('Profiler.start')
  return async () => {
    const { profile } = (await send('Profiler.stop')) as { profile: Profile }
    await cdp.detach()
    return profile
  }
}
