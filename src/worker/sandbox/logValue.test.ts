import { describe, expect, it } from 'vitest'
import { toLogValue } from './logValue'
import type { SandboxReply } from './sandboxProtocol'
import { startSandboxInProcess } from './testSandbox'

describe('toLogValue: what console.log records of a value', () => {
  it('keeps plain data as it is', () => {
    const v = { a: 1, b: ['x', true, null], c: { d: 'e' } }
    expect(toLogValue(v)).toEqual(v)
    expect(toLogValue('text')).toBe('text')
    expect(toLogValue(undefined)).toBeUndefined()
  })

  it('keeps the fields of an object that holds a function, naming the function', () => {
    const v = {
      city: 'Paris',
      format: function pretty() {},
      anon: (
        () => () =>
          1
      )(),
    }
    expect(toLogValue(v)).toEqual({
      city: 'Paris',
      format: '[Function pretty]',
      anon: '[Function anonymous]',
    })
  })

  it('cuts a cycle at [Circular] and keeps a value seen twice without a cycle', () => {
    const shared = { n: 1 }
    const v: Record<string, unknown> = { shared, again: shared }
    v.self = v
    expect(toLogValue(v)).toEqual({ shared: { n: 1 }, again: { n: 1 }, self: '[Circular]' })
  })

  it('shows an Error by name, message, stack (mapped), cause and its own fields', () => {
    const e = new TypeError('bad city', { cause: new Error('root') }) as TypeError & {
      code?: string
    }
    e.code = 'E_CITY'
    const out = toLogValue(e, (s) => s.replace(/\n[\s\S]*/, '\n at line 3')) as Record<
      string,
      unknown
    >
    expect(out.name).toBe('TypeError')
    expect(out.message).toBe('bad city')
    expect(out.stack).toBe('TypeError: bad city\n at line 3')
    expect((out.cause as { message: string }).message).toBe('root')
    expect(out.code).toBe('E_CITY')
  })

  it('makes class instances, Maps, Sets, Dates and odd numbers plain', () => {
    class Point {
      constructor(
        public x: number,
        public y: number,
      ) {}
      norm() {
        return Math.hypot(this.x, this.y)
      }
    }
    expect(toLogValue(new Point(3, 4))).toEqual({ x: 3, y: 4 })
    expect(toLogValue(new Map<unknown, unknown>([['a', 1]]))).toEqual({ a: 1 })
    expect(toLogValue(new Set([1, 2]))).toEqual([1, 2])
    expect(toLogValue(new Date(0))).toBe('1970-01-01T00:00:00.000Z')
    expect(toLogValue([NaN, Infinity, 10n, Symbol('s')])).toEqual([
      'NaN',
      'Infinity',
      '10n',
      'Symbol(s)',
    ])
    expect(toLogValue({ toJSON: () => ({ lg_name: 'Send' }) })).toEqual({ lg_name: 'Send' })
  })

  it('bounds depth, list length and string length', () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 30; i++) deep = { deep }
    expect(JSON.stringify(toLogValue(deep))).toContain('[Object]')
    const long = toLogValue(Array.from({ length: 2000 }, (_, i) => i)) as unknown[]
    expect(long).toHaveLength(501)
    expect(long[500]).toBe('… 1500 more items')
    expect(String(toLogValue('x'.repeat(30000)))).toMatch(/… \(10000 more characters\)$/)
  })

  it('survives getters that throw', () => {
    const v = {
      ok: 1,
      get bad(): never {
        throw new Error('nope')
      },
    }
    expect(toLogValue(v)).toEqual({ ok: 1, bad: '[getter threw: nope]' })
  })

  it('is self-contained: it runs from its source text alone', () => {
    const rebuilt = new Function(`return (${toLogValue.toString()})`)() as typeof toLogValue
    const v: Record<string, unknown> = { a: [1, { b: () => 2 }] }
    v.me = v
    expect(rebuilt(v)).toEqual({ a: [1, { b: '[Function b]' }], me: '[Circular]' })
    expect(structuredClone(rebuilt(new RangeError('r')))).toMatchObject({ name: 'RangeError' })
  })
})

describe('console in the sandbox', () => {
  it('logs objects with functions, cycles and Errors as their fields, the stack in the code’s lines', async () => {
    const port = startSandboxInProcess()
    try {
      const reply = await new Promise<SandboxReply>((resolve) => {
        port.onmessage = (e: MessageEvent<SandboxReply | { kind: 'started' }>) => {
          if (e.data.kind !== 'started') resolve(e.data)
        }
        const code = `(s) => {
  const o = { city: 'Paris', fmt() {} }
  o.self = o
  console.log('weather', o)
  console.error(new RangeError('too hot'))
  return {}
}`
        port.postMessage({
          id: 1,
          type: 'runNode',
          owner: 'n',
          code,
          input: {},
          pad: { resume: [] },
        })
      })
      expect(reply.kind).toBe('ok')
      const logs = reply.kind === 'ok' ? reply.logs : []
      expect(logs[0]?.args).toEqual([
        'weather',
        { city: 'Paris', fmt: '[Function fmt]', self: '[Circular]' },
      ])
      const error = logs[1]?.args[0] as { name: string; message: string; stack: string }
      expect(logs[1]?.level).toBe('error')
      expect(error).toMatchObject({ name: 'RangeError', message: 'too hot' })
      expect(error.stack).toContain('line 5, column 17')
    } finally {
      port.close()
    }
  })
})
