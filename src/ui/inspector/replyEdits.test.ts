import { describe, expect, it } from 'vitest'
import type { NodeSpec, ToolSpec } from '../../core/graph/schema'
import {
  argsMismatch,
  argsSkeleton,
  formatArgs,
  parseArgsText,
  patchReply,
  toolsForModel,
} from './replyEdits'
import { toolNameProblem } from './paramRows'

const weather: ToolSpec = {
  name: 'get_weather',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string' },
      days: { type: 'integer' },
      units: { type: 'string' },
      tags: { type: 'array' },
      at: {},
    },
    required: ['city', 'days', 'tags', 'at'],
  },
  code: '({ city }) => city',
}
const time: ToolSpec = { name: 'get_time', code: "() => '12:00'" }

describe('scripted replies in a form', () => {
  it('offers the bound tools node’s tools first, then the others, each name once', () => {
    const nodes: NodeSpec[] = [
      { id: 'a', kind: 'tools', tools: [time, { ...weather, code: 'x' }] },
      { id: 'b', kind: 'tools', tools: [weather] },
      { id: 'c', code: '(s) => ({})' },
    ]
    const model: NodeSpec = { id: 'm', kind: 'model', bindTools: 'b' }
    expect(toolsForModel({ nodes }, model).map((t) => [t.name, t.code])).toEqual([
      ['get_weather', '({ city }) => city'],
      ['get_time', "() => '12:00'"],
    ])
    expect(toolsForModel({ nodes }, { id: 'm', kind: 'model' }).map((t) => t.name)).toEqual([
      'get_time',
      'get_weather',
    ])
  })

  it('starts a call’s arguments from the tool’s required parameters', () => {
    expect(argsSkeleton(weather)).toEqual({ city: '', days: 0, tags: [], at: null })
    expect(argsSkeleton(time)).toEqual({})
    expect(argsSkeleton(undefined)).toEqual({})
    expect(argsSkeleton({ ...time, parameters: { type: 'string' } })).toEqual({})
  })

  it('reads the arguments box: a JSON object, blank for none, else why not', () => {
    expect(parseArgsText('{"city": "Paris"}')).toEqual({ ok: true, value: { city: 'Paris' } })
    expect(parseArgsText('  ')).toEqual({ ok: true, value: {} })
    const broken = parseArgsText('{"city": ')
    expect(broken.ok).toBe(false)
    expect(!broken.ok && broken.error).toMatch(/^Not JSON: /)
    for (const notObject of ['[1]', '"Paris"', 'null', '3']) {
      const r = parseArgsText(notObject)
      expect(!r.ok && r.error).toMatch(/^Not a JSON object/)
    }
    expect(formatArgs({ city: 'Paris', days: 3 })).toBe('{"city":"Paris","days":3}')
    expect(formatArgs(undefined)).toBe('{}')
  })

  it('says when arguments would fail the tool’s parameters, and where', () => {
    const ok = { city: 'Paris', days: 3, tags: [], at: 1 }
    expect(argsMismatch(ok, weather)).toBeNull()
    expect(argsMismatch({ ...ok, days: 'three' }, weather)).toMatch(
      /^Does not match get_weather's parameters at days: /,
    )
    expect(argsMismatch({ city: 'Paris' }, weather)).toMatch(/required/)
    expect(argsMismatch({ anything: 1 }, time)).toBeNull()
    expect(argsMismatch({ anything: 1 }, undefined)).toBeNull()
  })

  it('patches a reply’s field; undefined removes the key', () => {
    const reply = { content: 'hi', tool_calls: [{ name: 'get_time' }] }
    expect(patchReply(reply, 'content', 'hello')).toEqual({ ...reply, content: 'hello' })
    expect(patchReply(reply, 'tool_calls', undefined)).toEqual({ content: 'hi' })
    expect(reply).toEqual({ content: 'hi', tool_calls: [{ name: 'get_time' }] })
  })

  it('refuses an empty or a taken tool name', () => {
    expect(toolNameProblem('', ['a'])).toBe('A tool needs a name.')
    expect(toolNameProblem('a', ['a'])).toBe('Another tool is named a.')
    expect(toolNameProblem('b', ['a'])).toBeNull()
  })
})
