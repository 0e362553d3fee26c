import 'fake-indexeddb/auto'
import { afterEach, describe, expect, it } from 'vitest'
import { CODE_CHECKS_KEPT, CodeCheckStore } from '../persistence/codeCheckStore'
import { CodeChecks } from './codeChecks'
import { checkDocument } from './compile'
import { LocalCodeHost } from './localCodeHost'
import { chain, closeAll, setup } from './serviceHarness'

afterEach(closeAll)

const graph = (a: string, b = chain.nodes[1]!.code) => ({
  ...chain,
  nodes: [
    { id: 'a', code: a },
    { id: 'b', code: b },
  ],
})

let stores = 0
const storeName = () => `code-checks-test-${++stores}`

describe('code checks already made are not asked of the sandbox again', () => {
  it('asks only about code not checked before, and says the same of it', async () => {
    const host = new LocalCodeHost()
    const checks = new CodeChecks()
    const first = await checkDocument(graph('42'), host, await checks.known(false))
    expect(host.calls.check).toBe(2)
    expect(first.ok).toBe(false)
    // The same document: nothing asked, the same problem at the same place.
    const again = await checkDocument(graph('42'), host, await checks.known(false))
    expect(host.calls.check).toBe(2)
    expect(again).toEqual(first)
    // b edited: only b is asked; a's problem is still said.
    const edited = await checkDocument(graph('42', '(s) => ({})'), host, await checks.known(false))
    expect(host.calls.check).toBe(3)
    expect(edited.issues).toEqual(first.issues)
    // The other network mode has checks of its own.
    await checkDocument(graph('42'), host, await checks.known(true))
    expect(host.calls.check).toBe(5)
  })

  it('keeps no answer the sandbox did not give (a check that failed)', async () => {
    const host = new LocalCodeHost()
    let failing = true
    const flaky = Object.assign(Object.create(host) as LocalCodeHost, {
      check: (owner: string, kind: 'node', code: string) =>
        failing && owner === 'a'
          ? Promise.reject(new Error('timed out'))
          : host.check(owner, kind, code),
    })
    const checks = new CodeChecks()
    const first = await checkDocument(graph('(s) => ({})'), flaky, await checks.known(false))
    expect(first.issues).toEqual([expect.objectContaining({ message: 'Node `a`: timed out' })])
    failing = false
    const second = await checkDocument(graph('(s) => ({})'), flaky, await checks.known(false))
    expect(second).toMatchObject({ ok: true, issues: [] })
    expect(host.calls.check).toBe(2) // b once, then a once it answered
  })

  it('keeps them across page loads, the newest CODE_CHECKS_KEPT of them', async () => {
    const name = storeName()
    const host = new LocalCodeHost()
    const before = new CodeCheckStore(name)
    const checks = new CodeChecks(before)
    await checkDocument(graph('42'), host, await checks.known(false))
    expect(host.calls.check).toBe(2)
    await new Promise((r) => setTimeout(r, 50)) // saved in the background
    before.close()
    // A page load later: a new worker reads them.
    const after = new CodeCheckStore(name)
    const reopened = await checkDocument(
      graph('42'),
      host,
      await new CodeChecks(after).known(false),
    )
    expect(host.calls.check).toBe(2)
    expect(reopened).toMatchObject({
      ok: false,
      issues: [expect.objectContaining({ nodeId: 'a', code: 'CODE_NOT_A_FUNCTION' })],
    })
    // Beyond what is kept, the oldest go.
    await after.save(
      Array.from({ length: CODE_CHECKS_KEPT }, (_, i) => [`k${i}`, null] as const),
      Date.now() + 1000,
    )
    after.close()
    const pruned = await new CodeCheckStore(name).load()
    expect(pruned.size).toBe(CODE_CHECKS_KEPT)
    expect(pruned.has('k0')).toBe(true)
    expect([...pruned.keys()].some((k) => k.includes('(s) =>'))).toBe(false)
  })
})

describe('the worker compiles a graph it has checked before without starting a sandbox', () => {
  it('compiled again, and after a restart of the worker', async () => {
    const t = await setup()
    await t.compile()
    expect(t.sandboxes.wanted).toHaveLength(1) // the checks' own sandbox
    expect(t.host.calls.check).toBe(2)
    await t.compile()
    expect(t.sandboxes.wanted).toHaveLength(1)
    expect(t.host.calls.check).toBe(2)
    // A node edited: only its code is asked, in a sandbox of its own.
    await t.compile(graph("(s) => ({ x: 'a2' })"))
    expect(t.sandboxes.wanted).toHaveLength(2)
    expect(t.host.calls.check).toBe(3)
    await new Promise((r) => setTimeout(r, 50)) // saved in the background

    // The page loaded again: a new worker over the same database.
    const u = await setup({ init: false })
    await u.client.request('init', { dbName: t.dbName })
    await u.compile()
    expect(u.sandboxes.wanted).toHaveLength(0)
    expect(u.host.calls.check).toBe(0)
    // It runs as ever: the run's sandbox is its own.
    const graphId = await u.compile()
    const outcome = await u.client.request('run', {
      graphId,
      threadId: 't',
      input: { x: 'in' },
      mode: 'toEnd',
    })
    expect(outcome).toMatchObject({ status: 'done' })
    expect(u.sandboxes.wanted).toHaveLength(1)
  })
})
