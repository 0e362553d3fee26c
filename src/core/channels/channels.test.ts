import { describe, expect, it } from 'vitest'
import {
  BinaryOperatorAggregate,
  EMPTY,
  EphemeralValue,
  InvalidUpdateError,
  LastValue,
  LastValueAfterFinish,
  NamedBarrierValue,
  NamedBarrierValueAfterFinish,
  Topic,
} from '.'
import type { Channel } from '.'
import { append } from '../reducers/named'

/** Calls `fn` and returns what it threw (fails the test when it does not throw). */
function thrown(fn: () => unknown): unknown {
  try {
    fn()
  } catch (e) {
    return e
  }
  throw new Error('expected a throw')
}

function expectEmpty(c: Channel) {
  expect(c.isAvailable()).toBe(false)
  expect(c.get()).toBe(EMPTY)
}

describe('LastValue', () => {
  it('starts empty: nothing to get, nothing to checkpoint, and an empty update changes nothing', () => {
    const c = new LastValue()
    expectEmpty(c)
    expect(c.checkpoint()).toBe(EMPTY)
    expect(c.update([])).toBe(false)
    expectEmpty(c)
  })

  it('stores a single write, even undefined, and even when it equals the current value', () => {
    const c = new LastValue()
    expect(c.update([undefined])).toBe(true)
    expect(c.isAvailable()).toBe(true)
    expect(c.get()).toBeUndefined()
    expect(c.checkpoint()).toBeUndefined()
    expect(c.update([1])).toBe(true)
    expect(c.update([1])).toBe(true)
    expect(c.get()).toBe(1)
  })

  it('keeps its value on an empty update', () => {
    const c = new LastValue()
    c.update(['kept'])
    expect(c.update([])).toBe(false)
    expect(c.get()).toBe('kept')
  })

  it('refuses two writes in one step with INVALID_CONCURRENT_GRAPH_UPDATE and keeps the old value', () => {
    const c = new LastValue()
    c.update([1])
    const e = thrown(() => c.update([2, 3]))
    expect(e).toBeInstanceOf(InvalidUpdateError)
    const err = e as InvalidUpdateError
    expect(err.lc_error_code).toBe('INVALID_CONCURRENT_GRAPH_UPDATE')
    expect(err.message).toBe(
      'LastValue can only receive one value per step.\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langgraph/INVALID_CONCURRENT_GRAPH_UPDATE/\n',
    )
    expect(c.get()).toBe(1)
  })

  it('restores from a checkpoint as an independent copy; EMPTY restores an empty channel', () => {
    const c = new LastValue()
    c.update([{ a: 1 }])
    const restored = c.fromCheckpoint(c.checkpoint())
    expect(restored.get()).toEqual({ a: 1 })
    restored.update(['other'])
    expect(c.get()).toEqual({ a: 1 })
    expectEmpty(c.fromCheckpoint(EMPTY))
  })

  it('is neither consumed nor finished', () => {
    const c = new LastValue()
    c.update([1])
    expect(c.consume()).toBe(false)
    expect(c.finish()).toBe(false)
    expect(c.get()).toBe(1)
  })
})

describe('BinaryOperatorAggregate', () => {
  /** `a + b` that records every call. */
  const recordingAdd = () => {
    const calls: [unknown, unknown][] = []
    const reducer = (a: unknown, b: unknown) => {
      calls.push([a, b])
      return (a as number) + (b as number)
    }
    return { calls, reducer }
  }

  it('without a default: empty until written, then the first write is stored raw', () => {
    const { calls, reducer } = recordingAdd()
    const c = new BinaryOperatorAggregate(reducer)
    expectEmpty(c)
    expect(c.checkpoint()).toBe(EMPTY)
    expect(c.update([])).toBe(false)
    expect(c.update([10])).toBe(true)
    expect(calls).toEqual([])
    expect(c.get()).toBe(10)
  })

  it('folds later writes of one update in order through the reducer', () => {
    const { calls, reducer } = recordingAdd()
    const c = new BinaryOperatorAggregate(reducer)
    c.update([10])
    expect(c.update([1, 2])).toBe(true)
    expect(calls).toEqual([
      [10, 1],
      [11, 2],
    ])
    expect(c.get()).toBe(13)
  })

  it('folds the first write of a step raw and the rest of it through the reducer', () => {
    const { calls, reducer } = recordingAdd()
    const c = new BinaryOperatorAggregate(reducer)
    c.update([5, 6])
    expect(calls).toEqual([[5, 6]])
    expect(c.get()).toBe(11)
  })

  it('with a default: available from the start and the reducer is applied to the default', () => {
    const c = new BinaryOperatorAggregate(append, () => [])
    expect(c.isAvailable()).toBe(true)
    expect(c.get()).toEqual([])
    expect(c.checkpoint()).toEqual([])
    expect(c.update([])).toBe(false)
    expect(c.update([[1], [2, 3]])).toBe(true)
    expect(c.get()).toEqual([1, 2, 3])
  })

  it('calls the reducer with the default as the left side of the first write', () => {
    const { calls, reducer } = recordingAdd()
    const c = new BinaryOperatorAggregate(reducer, () => 100)
    c.update([1])
    expect(calls).toEqual([[100, 1]])
    expect(c.get()).toBe(101)
  })

  it('round-trips through a checkpoint, and a restored empty value falls back to a fresh default', () => {
    const c = new BinaryOperatorAggregate(append, () => [])
    c.update([[9]])
    const restored = c.fromCheckpoint(c.checkpoint())
    expect(restored.get()).toEqual([9])
    restored.update([[10]])
    expect(restored.get()).toEqual([9, 10])
    expect(c.get()).toEqual([9])

    const fresh = c.fromCheckpoint(EMPTY)
    expect(fresh.get()).toEqual([])
    expect(new BinaryOperatorAggregate(append).fromCheckpoint(EMPTY).isAvailable()).toBe(false)
  })

  it('gives every channel its own default value', () => {
    const a = new BinaryOperatorAggregate(append, () => [])
    const b = a.fromCheckpoint(EMPTY)
    a.update([['only a']])
    expect(b.get()).toEqual([])
  })

  it('is neither consumed nor finished', () => {
    const c = new BinaryOperatorAggregate(append, () => [])
    expect(c.consume()).toBe(false)
    expect(c.finish()).toBe(false)
  })

  // LangGraph.js 1.7.3 (reference §1, c02, c49): `{__overwrite__: v}` sets the value,
  // bypassing the reducer, and ignores the later values of the same update.
  it('treats {__overwrite__: v} as Overwrite: sets the value, later writes of the step ignored', () => {
    const c = new BinaryOperatorAggregate(append, () => [])
    c.update([['a']])
    c.update([['b'], { __overwrite__: ['o'] }, ['c']])
    expect(c.get()).toEqual(['o'])
  })
})

describe('Topic', () => {
  it('starts empty but checkpoints as an empty list', () => {
    const c = new Topic()
    expectEmpty(c)
    expect(c.checkpoint()).toEqual([])
    expect(c.update([])).toBe(false)
    expect(c.update([[]])).toBe(false)
  })

  it('flattens writes exactly one level', () => {
    const c = new Topic()
    expect(c.update([1, [2, 3], [[4]]])).toBe(true)
    expect(c.get()).toEqual([1, 2, 3, [4]])
  })

  it('without accumulate: each update replaces the values, an empty one clears them', () => {
    const c = new Topic(false)
    c.update([1, 2])
    c.update([3])
    expect(c.get()).toEqual([3])
    expect(c.update([])).toBe(true)
    expectEmpty(c)
    expect(c.checkpoint()).toEqual([])
    expect(c.update([])).toBe(false)
  })

  it('with accumulate: values are kept across updates and an empty update changes nothing', () => {
    const c = new Topic(true)
    c.update([1])
    c.update([2])
    expect(c.update([])).toBe(false)
    expect(c.get()).toEqual([1, 2])
    expect(c.checkpoint()).toEqual([1, 2])
  })

  it('restores its values and its accumulate setting from a checkpoint, as a copy', () => {
    const saved = [7, 8]
    const acc = new Topic(true).fromCheckpoint(saved)
    saved.push(99)
    expect(acc.get()).toEqual([7, 8])
    acc.update([9])
    expect(acc.get()).toEqual([7, 8, 9])

    const plain = new Topic(false).fromCheckpoint([7, 8])
    plain.update([9])
    expect(plain.get()).toEqual([9])
    expectEmpty(new Topic().fromCheckpoint(EMPTY))
  })

  it('checkpoints a copy that later updates do not change', () => {
    const c = new Topic(true)
    c.update([1])
    const saved = c.checkpoint()
    c.update([2])
    expect(saved).toEqual([1])
  })

  it('is neither consumed nor finished', () => {
    const c = new Topic()
    c.update([1])
    expect(c.consume()).toBe(false)
    expect(c.finish()).toBe(false)
    expect(c.get()).toEqual([1])
  })
})

describe('EphemeralValue', () => {
  it('holds a write until the next empty update clears it', () => {
    const c = new EphemeralValue()
    expect(c.update([])).toBe(false)
    expect(c.update(['x'])).toBe(true)
    expect(c.get()).toBe('x')
    expect(c.checkpoint()).toBe('x')
    expect(c.update([])).toBe(true)
    expectEmpty(c)
    expect(c.checkpoint()).toBe(EMPTY)
    expect(c.update([])).toBe(false)
  })

  it('counts a null write as a value (branch channels carry null)', () => {
    const c = new EphemeralValue(false)
    expect(c.update([null])).toBe(true)
    expect(c.isAvailable()).toBe(true)
    expect(c.get()).toBeNull()
    expect(c.fromCheckpoint(null).isAvailable()).toBe(true)
  })

  it('with guard: refuses two writes in one step (no error code) and keeps the old value', () => {
    const c = new EphemeralValue(true)
    c.update(['old'])
    const e = thrown(() => c.update(['a', 'b']))
    expect(e).toBeInstanceOf(InvalidUpdateError)
    expect((e as InvalidUpdateError).message).toBe(
      'EphemeralValue can only receive one value per step.',
    )
    expect((e as InvalidUpdateError).lc_error_code).toBeUndefined()
    expect(c.get()).toBe('old')
  })

  it('without guard: keeps the last of several writes', () => {
    const c = new EphemeralValue(false)
    expect(c.update(['a', 'b'])).toBe(true)
    expect(c.get()).toBe('b')
  })

  it('restores from a checkpoint with the same guard', () => {
    const unguarded = new EphemeralValue(false).fromCheckpoint('v')
    expect(unguarded.get()).toBe('v')
    expect(unguarded.update(['a', 'b'])).toBe(true)
    const guarded = new EphemeralValue(true).fromCheckpoint('v')
    expect(() => guarded.update(['a', 'b'])).toThrow(InvalidUpdateError)
    expectEmpty(new EphemeralValue().fromCheckpoint(EMPTY))
  })

  it('is neither consumed nor finished', () => {
    const c = new EphemeralValue()
    c.update(['x'])
    expect(c.consume()).toBe(false)
    expect(c.finish()).toBe(false)
    expect(c.get()).toBe('x')
  })
})

describe('NamedBarrierValue', () => {
  const names = () => new Set(['a', 'b'])

  it('is available, with value undefined, only once every name has written', () => {
    const c = new NamedBarrierValue(names())
    expectEmpty(c)
    expect(c.checkpoint()).toEqual([])
    expect(c.update(['a'])).toBe(true)
    expect(c.update(['a'])).toBe(false)
    expectEmpty(c)
    expect(c.checkpoint()).toEqual(['a'])
    expect(c.update(['b'])).toBe(true)
    expect(c.isAvailable()).toBe(true)
    expect(c.get()).toBeUndefined()
  })

  it('does not clear on an empty update', () => {
    const c = new NamedBarrierValue(names())
    c.update(['a'])
    expect(c.update([])).toBe(false)
    expect(c.checkpoint()).toEqual(['a'])
  })

  it('refuses a name it does not wait for', () => {
    const c = new NamedBarrierValue(names())
    const e = thrown(() => c.update(['z']))
    expect(e).toBeInstanceOf(InvalidUpdateError)
    expect((e as Error).message).toBe('Value "z" not in names {}')
  })

  it('consume resets a complete barrier and does nothing to an incomplete one', () => {
    const c = new NamedBarrierValue(names())
    c.update(['a'])
    expect(c.consume()).toBe(false)
    expect(c.checkpoint()).toEqual(['a'])
    c.update(['b'])
    expect(c.consume()).toBe(true)
    expectEmpty(c)
    expect(c.checkpoint()).toEqual([])
    expect(c.consume()).toBe(false)
    expect(c.finish()).toBe(false)
  })

  it('restores the names seen from a checkpoint', () => {
    const c = new NamedBarrierValue(names())
    expect(c.fromCheckpoint(['a', 'b']).isAvailable()).toBe(true)
    const half = c.fromCheckpoint(['a'])
    expect(half.isAvailable()).toBe(false)
    expect(half.update(['b'])).toBe(true)
    expect(half.isAvailable()).toBe(true)
    expect(c.isAvailable()).toBe(false)
    expectEmpty(c.fromCheckpoint(EMPTY))
  })
})

describe('LastValueAfterFinish', () => {
  it('holds a write unavailable until finish, then until consumed', () => {
    const c = new LastValueAfterFinish()
    expect(c.update([])).toBe(false)
    expect(c.finish()).toBe(false)
    expect(c.update([1])).toBe(true)
    expectEmpty(c)
    expect(c.checkpoint()).toEqual([1, false])
    expect(c.consume()).toBe(false)
    expect(c.finish()).toBe(true)
    expect(c.isAvailable()).toBe(true)
    expect(c.get()).toBe(1)
    expect(c.checkpoint()).toEqual([1, true])
    expect(c.finish()).toBe(false)
    expect(c.consume()).toBe(true)
    expectEmpty(c)
    expect(c.checkpoint()).toBe(EMPTY)
    expect(c.consume()).toBe(false)
  })

  it('a new write after finish makes it wait for the next finish', () => {
    const c = new LastValueAfterFinish()
    c.update([1])
    c.finish()
    expect(c.update([2])).toBe(true)
    expect(c.isAvailable()).toBe(false)
    expect(c.finish()).toBe(true)
    expect(c.get()).toBe(2)
  })

  it('restores value and finished flag from a checkpoint', () => {
    const c = new LastValueAfterFinish()
    const finished = c.fromCheckpoint([1, true])
    expect(finished.get()).toBe(1)
    const waiting = c.fromCheckpoint([1, false])
    expect(waiting.isAvailable()).toBe(false)
    expect(waiting.finish()).toBe(true)
    expect(waiting.get()).toBe(1)
    expectEmpty(c.fromCheckpoint(EMPTY))
  })
})

describe('NamedBarrierValueAfterFinish', () => {
  it('is available only after a complete barrier is finished, and consume resets it', () => {
    const c = new NamedBarrierValueAfterFinish(new Set(['a', 'b']))
    expect(c.update(['a'])).toBe(true)
    expect(c.finish()).toBe(false)
    expect(c.update(['b'])).toBe(true)
    expectEmpty(c)
    expect(c.consume()).toBe(false)
    expect(c.checkpoint()).toEqual([['a', 'b'], false])
    expect(c.finish()).toBe(true)
    expect(c.isAvailable()).toBe(true)
    expect(c.get()).toBeUndefined()
    expect(c.checkpoint()).toEqual([['a', 'b'], true])
    expect(c.finish()).toBe(false)
    expect(c.consume()).toBe(true)
    expectEmpty(c)
    expect(c.checkpoint()).toEqual([[], false])
    expect(c.consume()).toBe(false)
  })

  it('refuses unknown names like NamedBarrierValue', () => {
    const c = new NamedBarrierValueAfterFinish(new Set(['a']))
    expect(() => c.update(['z'])).toThrow(InvalidUpdateError)
  })

  it('restores seen names and the finished flag from a checkpoint', () => {
    const c = new NamedBarrierValueAfterFinish(new Set(['a', 'b']))
    const restored = c.fromCheckpoint([['a', 'b'], true])
    expect(restored.kind).toBe('NamedBarrierValueAfterFinish')
    expect(restored.isAvailable()).toBe(true)
    const waiting = c.fromCheckpoint([['a', 'b'], false])
    expect(waiting.isAvailable()).toBe(false)
    expect(waiting.finish()).toBe(true)
    expect(c.fromCheckpoint([['a'], false]).finish()).toBe(false)
  })
})

describe('BinaryOperatorAggregate with append, several writes in one step', () => {
  it('gives the list appending them one by one gives, and leaves the old list alone', () => {
    const writes = [[1, 2], 3, undefined, [], [[4]], 'x']
    const folded = writes.reduce((acc: unknown, w) => append(acc, w), [0])
    const old = [0]
    const channel = new BinaryOperatorAggregate(append).fromCheckpoint(old)
    expect(channel.update(writes)).toBe(true)
    expect(channel.get()).toEqual(folded)
    expect(channel.get()).toEqual([0, 1, 2, 3, [4], 'x'])
    expect(old).toEqual([0])
  })

  it('starts a list from a current value that is not one', () => {
    const channel = new BinaryOperatorAggregate(append).fromCheckpoint('a')
    channel.update(['b', ['c']])
    expect(channel.get()).toEqual(['a', 'b', 'c'])
  })
})
