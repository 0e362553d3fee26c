import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from './main'

const graph = {
  superstep: 1,
  name: 'chat',
  state: [{ name: 'messages', reducer: 'add_messages', default: [] }],
  nodes: [
    {
      id: 'model',
      kind: 'model',
      model: { provider: 'scripted', replies: [{ content: 'Hello there, friend.', id: 'ai-1' }] },
    },
  ],
  edges: [
    { from: '__start__', to: 'model' },
    { from: 'model', to: '__end__' },
  ],
}

describe('superstep stream --mode messages', () => {
  it('prints a scripted reply token by token, then the update with the whole reply', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'superstep-cli-')), 'chat.json')
    writeFileSync(path, JSON.stringify(graph))
    let stdout = ''
    const code = await main(
      [
        'stream',
        path,
        '--input',
        '{"messages":[{"type":"human","content":"hi","id":"h1"}]}',
        '--mode',
        'messages,updates',
      ],
      { stdout: (s) => (stdout += s), stderr: () => {} },
    )
    expect(code).toBe(0)
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as [string, unknown])
    expect(
      lines.map(([mode, payload]) => (mode === 'messages' ? (payload as [unknown])[0] : payload)),
    ).toEqual([
      { type: 'AIMessageChunk', content: 'Hello', id: 'ai-1' },
      { type: 'AIMessageChunk', content: ' there,', id: 'ai-1' },
      { type: 'AIMessageChunk', content: ' friend.', id: 'ai-1' },
      { model: { messages: [{ type: 'ai', content: 'Hello there, friend.', id: 'ai-1' }] } },
    ])
  })
})
