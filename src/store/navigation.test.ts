import { describe, expect, it } from 'vitest'
import { createNavigation } from './navigation'

const latch = () => {
  let open = () => undefined as void
  const done = new Promise<void>((resolve) => (open = resolve))
  return { done, open }
}

describe('navigation', () => {
  it('makes moves one at a time, in the order asked, even when an earlier one is slower', async () => {
    const nav = createNavigation()
    const slow = latch()
    const seen: string[] = []
    const first = nav.go(async () => {
      seen.push('first begins')
      await slow.done
      seen.push('first ends')
    })
    const second = nav.go(async () => {
      seen.push('second')
      return 2
    })
    await Promise.resolve()
    expect(seen).toEqual(['first begins'])
    slow.open()
    expect(await second).toBe(2)
    await first
    expect(seen).toEqual(['first begins', 'first ends', 'second'])
  })

  it('a failed move fails its caller and does not hold the next one back', async () => {
    const nav = createNavigation()
    const failed = nav.go(async () => {
      throw new Error('no such thread')
    })
    const next = nav.go(async () => 'made')
    await expect(failed).rejects.toThrow('no such thread')
    expect(await next).toBe('made')
  })

  it('settled waits for the moves asked before it and for those asked while it waits', async () => {
    const nav = createNavigation()
    const a = latch()
    const b = latch()
    const seen: string[] = []
    void nav.go(async () => {
      await a.done
      seen.push('a')
      // Asked while `settled` below already waits (a move that leads to another).
      void nav.go(async () => {
        await b.done
        seen.push('b')
      })
    })
    const settled = nav.settled().then(() => seen.push('settled'))
    a.open()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(seen).toEqual(['a'])
    b.open()
    await settled
    expect(seen).toEqual(['a', 'b', 'settled'])
  })
})
