/**
 * A Chromium performance trace of the page's main thread, summed by event name as self time
 * (an event's duration less that of the events nested in it): where a frame's time goes
 * between script, style, layout, paint and the compositor, which a CPU profile lumps together
 * as "(program)".
 */
import type { Browser, Page } from 'playwright-core'

interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  /** Thread (CPU) time: what the event cost, however loaded the machine. */
  tdur?: number
  pid: number
  tid: number
  args?: { name?: string }
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink',
  'cc',
  'v8',
  'toplevel',
]

/** Starts a trace of `page`; the returned function stops it and returns the events. */
export async function startTrace(browser: Browser, page: Page): Promise<() => Promise<unknown>> {
  await browser.startTracing(page, { categories: CATEGORIES })
  return async () => JSON.parse((await browser.stopTracing()).toString('utf8')) as unknown
}

/**
 * The renderer main thread's `top` event names by self time (ms of thread CPU time, so other
 * processes' load counts less), over the whole trace, each with how many times it ran.
 */
export function topTraceSelfTimes(trace: unknown, top = 20): [string, number, number][] {
  const events = (
    Array.isArray(trace) ? trace : (trace as { traceEvents: TraceEvent[] }).traceEvents
  ) as TraceEvent[]
  const main = events.find((e) => e.ph === 'M' && e.args?.name === 'CrRendererMain')
  if (!main) return []
  const spans = events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
  const self = new Map<string, number>()
  const count = new Map<string, number>()
  const stack: { end: number; name: string }[] = []
  for (const e of spans) {
    const end = e.ts + (e.dur ?? 0)
    const cost = (e.tdur ?? e.dur ?? 0) / 1000
    while (stack.length && (stack[stack.length - 1]?.end ?? 0) <= e.ts) stack.pop()
    const parent = stack[stack.length - 1]
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - cost)
    self.set(e.name, (self.get(e.name) ?? 0) + cost)
    count.set(e.name, (count.get(e.name) ?? 0) + 1)
    stack.push({ end, name: e.name })
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, t]): [string, number, number] => [name, t, count.get(name) ?? 0])
}
