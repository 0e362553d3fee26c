import type * as GraphToolsModule from './graphTools'
import { beforeEach, expect, it, vi } from 'vitest'

// A fresh copy of graphTools.ts each test: the test setup hands the shared one its tools.
let tools: typeof GraphToolsModule
beforeEach(async () => {
  vi.resetModules()
  tools = await import('./graphTools')
})

it('refuses to be used before its chunk has loaded (a bug), and parses once it has', async () => {
  expect(() => tools.graphTools()).toThrow(/loadGraphTools/)
  const loading = tools.loadGraphTools()
  expect(tools.loadGraphTools()).toBe(loading) // fetched once
  await loading
  const parsed = tools.graphTools().parseGraph({ superstep: 1, name: 'x', state: [] })
  expect(parsed.ok).toBe(false)
  expect(parsed.issues.map((i) => i.code)).toContain('SCHEMA')
})
