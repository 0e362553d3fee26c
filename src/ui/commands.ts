import { selectCanRun, type AppActions, type AppState } from '../store/appStore'

/**
 * The keyboard commands of the workbench, registered in one place: a name, the keys, when
 * they apply, and what they do. The global key handler (`useRunKeys`) dispatches through this
 * list, and the shortcuts dialog (`?`) is drawn from it, so what the help says is what the
 * keys do. The canvas's own keys (Delete, copy, paste, N) act only with focus in the canvas;
 * they are listed here too (`scope: 'canvas'`), and handled by `useCanvasKeys`.
 */

/** One key combination: `key` as KeyboardEvent.key (case-insensitive for letters). */
export interface KeyBinding {
  key: string
  mod?: boolean
  shift?: boolean
}

export type CommandGroup = 'Run' | 'Edit' | 'Canvas' | 'Help'

export interface CommandContext {
  state: AppState & AppActions
  openHelp?: () => void
  openExport?: () => void
}

export interface WorkbenchCommand {
  id: string
  group: CommandGroup
  /** What it does, as the help says it. */
  name: string
  keys: KeyBinding[]
  /** `global`: anywhere, also while typing (the run keys); `notTyping`: not in a field or editor; `canvas`: handled by the canvas. */
  scope: 'global' | 'notTyping' | 'canvas'
  /** Whether it applies now; a key that does not apply is left to the browser. */
  enabled?(ctx: CommandContext): boolean
  run?(ctx: CommandContext): void
}

const isRunning = (c: CommandContext) => c.state.runState === 'running'

export const COMMANDS: readonly WorkbenchCommand[] = [
  {
    id: 'run',
    group: 'Run',
    name: 'Run, or continue a paused run',
    keys: [{ key: 'F5' }],
    scope: 'global',
    run: (c) => {
      if (selectCanRun(c.state)) void c.state.run()
    },
  },
  {
    id: 'step',
    group: 'Run',
    name: 'Step: exactly one super-step',
    keys: [{ key: 'F10' }],
    scope: 'global',
    run: (c) => {
      if (selectCanRun(c.state)) void c.state.step()
    },
  },
  {
    id: 'stepInto',
    group: 'Run',
    name: 'Step into: one super-step of the subgraph the next step runs',
    keys: [{ key: 'F11' }],
    scope: 'global',
    enabled: (c) => Object.keys(c.state.spec?.subgraphs ?? {}).length > 0,
    run: (c) => {
      if (selectCanRun(c.state)) void c.state.stepInto()
    },
  },
  {
    id: 'stepOut',
    group: 'Run',
    name: 'Step out: the rest of the subgraph the run is paused in',
    keys: [{ key: 'F11', shift: true }],
    scope: 'global',
    enabled: (c) => c.state.pausedBy?.inner !== undefined,
    run: (c) => {
      if (selectCanRun(c.state)) void c.state.stepOut()
    },
  },
  {
    id: 'pause',
    group: 'Run',
    name: 'Pause a run at the next super-step (only while a run advances; else F6 is the browser’s)',
    keys: [{ key: 'F6' }],
    scope: 'global',
    enabled: isRunning,
    run: (c) => void c.state.pause(),
  },
  {
    id: 'stop',
    group: 'Run',
    name: 'Stop the run',
    keys: [{ key: 'F5', shift: true }],
    scope: 'global',
    run: (c) => {
      if (isRunning(c)) void c.state.stop()
    },
  },
  {
    id: 'undo',
    group: 'Edit',
    name: 'Undo (in a code editor or field: its own undo)',
    keys: [{ key: 'z', mod: true }],
    scope: 'notTyping',
    run: (c) => c.state.undo(),
  },
  {
    id: 'redo',
    group: 'Edit',
    name: 'Redo',
    keys: [{ key: 'z', mod: true, shift: true }],
    scope: 'notTyping',
    run: (c) => c.state.redo(),
  },
  {
    id: 'export',
    group: 'Edit',
    name: 'Export the graph as code',
    keys: [{ key: 'e', mod: true }],
    scope: 'global',
    run: (c) => c.openExport?.(),
  },
  {
    id: 'delete',
    group: 'Canvas',
    name: 'Delete the selection',
    keys: [{ key: 'Delete' }, { key: 'Backspace' }],
    scope: 'canvas',
  },
  {
    id: 'copy-paste',
    group: 'Canvas',
    name: 'Copy and paste nodes (the copy is selected)',
    keys: [
      { key: 'c', mod: true },
      { key: 'v', mod: true },
    ],
    scope: 'canvas',
  },
  { id: 'add-node', group: 'Canvas', name: 'Add a node', keys: [{ key: 'n' }], scope: 'canvas' },
  {
    id: 'clear-selection',
    group: 'Canvas',
    name: 'Clear the selection',
    keys: [{ key: 'Escape' }],
    scope: 'canvas',
  },
  {
    id: 'level-up',
    group: 'Canvas',
    name: 'Back from a subgraph to the graph that uses it',
    keys: [
      { key: 'Enter', shift: true },
      { key: 'ArrowUp', mod: true },
    ],
    scope: 'notTyping',
    enabled: (c) => c.state.level.length > 0,
    run: (c) => c.state.openLevel(c.state.level.slice(0, -1)),
  },
  {
    id: 'help',
    group: 'Help',
    name: 'This list',
    keys: [{ key: '?' }],
    scope: 'notTyping',
    run: (c) => c.openHelp?.(),
  },
]

/** What the help shows besides keys: pointer gestures and keys of one widget. */
export const GESTURES: readonly [string, string][] = [
  ['↑ / ↓ (timeline focused)', 'Select the newer / older checkpoint'],
  ['Double-click the canvas', 'Add a node there'],
  ['Double-click a node name', 'Rename it'],
  ['Double-click a graph node, or Enter on it', 'Open its subgraph on the canvas'],
  ['Ctrl+M (in a code editor)', 'Tab moves focus instead of indenting'],
]

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

/** A binding as the help shows it: `Ctrl+Shift+Z`, `⌘⇧Z` on a Mac. */
export function keyLabel(b: KeyBinding): string {
  const key = b.key.length === 1 ? b.key.toUpperCase() : b.key
  if (b.key === '?') return '?'
  return [b.mod ? (MAC ? '⌘' : 'Ctrl') : '', b.shift ? (MAC ? '⇧' : 'Shift') : '', key]
    .filter(Boolean)
    .join(MAC ? '' : '+')
}

/** Whether a key event is this binding (letters case-insensitive; `?` whatever Shift says). */
export function matches(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
  b: KeyBinding,
): boolean {
  if (e.altKey) return false
  const mod = e.ctrlKey || e.metaKey
  if (mod !== !!b.mod) return false
  if (b.key === '?') return e.key === '?'
  if (e.shiftKey !== !!b.shift) return false
  return e.key.length === 1 ? e.key.toLowerCase() === b.key.toLowerCase() : e.key === b.key
}

/**
 * The command a key press runs, given whether the user is typing: the global and not-typing
 * commands (the canvas's are its own). Null when none applies, so the key stays the page's
 * or the browser's.
 */
export function commandFor(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
  typing: boolean,
  ctx: CommandContext,
): WorkbenchCommand | null {
  for (const c of COMMANDS) {
    if (c.scope === 'canvas' || (c.scope === 'notTyping' && typing)) continue
    if (!c.keys.some((b) => matches(e, b))) continue
    if (c.enabled && !c.enabled(ctx)) return null
    return c
  }
  return null
}
