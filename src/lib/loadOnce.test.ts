import { describe, expect, it, vi } from 'vitest'
import { loadOnce } from './loadOnce'

describe('loadOnce', () => {
  it('loads once for every call, and again after a failure', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue('chunk')
    const onFail = vi.fn((e: unknown) => `failed: ${(e as Error).message}`)
    const get = loadOnce(load, onFail)
    expect(await Promise.all([get(), get()])).toEqual(['failed: offline', 'failed: offline'])
    expect(load).toHaveBeenCalledTimes(1)
    expect(onFail).toHaveBeenCalledTimes(1)
    expect(await Promise.all([get(), get()])).toEqual(['chunk', 'chunk'])
    expect(await get()).toBe('chunk')
    expect(load).toHaveBeenCalledTimes(2)
  })
})
