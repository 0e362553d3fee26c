import { afterEach, describe, expect, it } from 'vitest'
import chatbot from '../../../examples/chatbot.json'
import { createAppStore } from '../../store/appStore'
import { memoryGraphs } from '../../store/memoryGraphs'
import { closeAll, setup as setupService } from '../../worker/serviceHarness'
import type { TimelineEntry } from '../../worker/protocol'
import { readMessages } from '../messages/messageModel'
import { chatTurns, checkpointTree, turnStarts, versionTip } from './chatBranches'

/** Stories of the chat's turns and branches: the app store over the real runtime service. */

afterEach(closeAll)

async function chat() {
  const service = await setupService()
  let id = 0
  const store = createAppStore({
    client: service.client,
    graphs: memoryGraphs(),
    examples: [{ id: 'g', name: 'g', doc: chatbot, trusted: true, allowNetwork: false }],
    newId: () => `id${++id}`,
  })
  await store.getState().init()
  const shown = () => {
    const s = store.getState()
    const value = s.inspection?.channels.find((c) => c.name === 'messages')?.value ?? []
    return (readMessages(value, true) ?? []).map((m) => m.content)
  }
  const turns = () => {
    const s = store.getState()
    const tree = checkpointTree(s.timeline)
    return { tree, turns: chatTurns(tree, s.selectedCheckpointId ?? s.timeline[0]?.checkpointId) }
  }
  return { store, shown, turns }
}

describe('chat turns and branches', () => {
  it('an edited message forks from its input checkpoint; both branches are kept and switchable', async () => {
    const { store, shown, turns } = await chat()
    await store.getState().sendChat('messages', 'hi')
    await store.getState().sendChat('messages', 'a graph, please')
    expect(shown()).toEqual([
      'hi',
      'Hello! What would you like to build?',
      'a graph, please',
      'A graph sounds great. Start with a node.',
    ])
    const before = turns()
    expect(before.turns.map((t) => [t.versions.length, t.version])).toEqual([
      [1, 0],
      [1, 0],
    ])
    // Each turn: its input checkpoint, the __start__ step, the model's step.
    expect(before.turns.map((t) => t.checkpoints.map((c) => c.source))).toEqual([
      ['input', 'loop', 'loop'],
      ['input', 'loop', 'loop'],
    ])
    const first = before.turns[0]?.inputId as string
    const oldTip = store.getState().timeline[0]?.checkpointId as string

    // Edit the first message: the graph runs from the state before it was added.
    await store.getState().sendChat('messages', 'hello there', first)
    expect(store.getState().runState).toBe('done')
    expect(shown()).toEqual(['hello there', 'Hello! What would you like to build?'])
    const after = turns()
    expect(after.turns).toHaveLength(1)
    const edited = after.turns[0]
    expect(edited?.versions).toEqual([first, edited?.inputId])
    expect(edited?.version).toBe(1)
    // The new input checkpoint is a child of the old one: the timeline's fork.
    const newInput = after.tree.byId.get(edited?.inputId ?? '') as TimelineEntry
    expect(newInput.parentId).toBe(first)
    // The first version's own branch ends where the old conversation did.
    expect(versionTip(after.tree, first)).toBe(oldTip)
    expect(versionTip(after.tree, edited?.inputId ?? '')).toBe(
      store.getState().timeline[0]?.checkpointId,
    )

    // Switch back: the old branch's conversation, its message shown as version 1 of 2.
    await store.getState().selectCheckpoint(versionTip(after.tree, first))
    expect(shown()).toEqual([
      'hi',
      'Hello! What would you like to build?',
      'a graph, please',
      'A graph sounds great. Start with a node.',
    ])
    expect(turns().turns.map((t) => [t.versions.length, t.version])).toEqual([
      [2, 0],
      [1, 0],
    ])
    // A message sent on the old branch continues it, not the newest.
    await store
      .getState()
      .sendChat('messages', 'and then?', store.getState().selectedCheckpointId ?? undefined)
    expect(shown()).toEqual([
      'hi',
      'Hello! What would you like to build?',
      'a graph, please',
      'A graph sounds great. Start with a node.',
      'and then?',
      'Step through it with F10.',
    ])
    expect(turns().turns).toHaveLength(3)
  })

  it('matches human messages to turns from the end when their counts differ', () => {
    const turn = (inputId: string) => ({
      inputId,
      checkpoints: [],
      versions: [inputId],
      version: 0,
    })
    const a = turn('a')
    const b = turn('b')
    expect([...turnStarts(['human', 'ai', 'human', 'ai'], [a, b])]).toEqual([
      [0, a],
      [2, b],
    ])
    // A graph that adds a human message of its own: the last ones start the turns.
    expect([...turnStarts(['human', 'human', 'ai', 'human'], [a, b])]).toEqual([
      [1, a],
      [3, b],
    ])
    expect([...turnStarts(['system', 'human'], [a, b])]).toEqual([[1, b]])
  })
})
