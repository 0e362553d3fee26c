import { describe, expect, it, vi } from 'vitest'
import type { AppActions, AppState } from '../store/appStore'
import { COMMANDS, commandFor, keyLabel, matches } from './commands'

const key = (k: string, o: { ctrl?: boolean; shift?: boolean; alt?: boolean } = {}) => ({
  key: k,
  ctrlKey: !!o.ctrl,
  metaKey: false,
  shiftKey: !!o.shift,
  altKey: !!o.alt,
})

function ctx(runState: AppState['runState'] = 'idle') {
  const state = {
    runState,
    current: { trusted: true },
    run: vi.fn(),
    step: vi.fn(),
    pause: vi.fn(),
    stop: vi.fn(),
    undo: vi.fn(),
    redo: vi.fn(),
  } as unknown as AppState & AppActions
  return { state, openHelp: vi.fn(), openExport: vi.fn() }
}

describe('the registered commands', () => {
  it('the run keys and Export work while typing; Undo, Redo and ? do not', () => {
    const c = ctx()
    expect(commandFor(key('F5'), true, c)?.id).toBe('run')
    expect(commandFor(key('F10'), true, c)?.id).toBe('step')
    expect(commandFor(key('e', { ctrl: true }), true, c)?.id).toBe('export')
    expect(commandFor(key('z', { ctrl: true }), true, c)).toBeNull()
    expect(commandFor(key('?', { shift: true }), true, c)).toBeNull()
    expect(commandFor(key('z', { ctrl: true }), false, c)?.id).toBe('undo')
    expect(commandFor(key('Z', { ctrl: true, shift: true }), false, c)?.id).toBe('redo')
    expect(commandFor(key('?', { shift: true }), false, c)?.id).toBe('help')
  })

  it('F6 is the browser’s unless a run advances', () => {
    expect(commandFor(key('F6'), false, ctx('idle'))).toBeNull()
    const running = ctx('running')
    const pause = commandFor(key('F6'), false, running)
    expect(pause?.id).toBe('pause')
    pause?.run?.(running)
    expect(running.state.pause).toHaveBeenCalled()
  })

  it('Shift+F5 stops, not runs; the canvas keys are the canvas’s', () => {
    const c = ctx('running')
    expect(commandFor(key('F5', { shift: true }), false, c)?.id).toBe('stop')
    expect(commandFor(key('Delete'), false, c)).toBeNull()
    expect(commandFor(key('n'), false, c)).toBeNull()
    expect(matches(key('n', { alt: true }), { key: 'n' })).toBe(false)
  })

  it('every command has a name and keys the help can show', () => {
    for (const c of COMMANDS) {
      expect(c.name.length).toBeGreaterThan(3)
      for (const k of c.keys) expect(keyLabel(k)).toMatch(/\S/)
    }
    expect(new Set(COMMANDS.map((c) => c.id)).size).toBe(COMMANDS.length)
  })
})
