import type { Navigation } from './navigation'
import type { TaskLog } from '../core/compile/host'
import type { GraphEdit } from '../core/graph/edits'
import type { GraphIssue } from '../core/graph/issues'
import type { GraphSpec } from '../core/graph/schema'
import type { RuntimeRequests } from '../worker/client'
import type { InterruptInfo, RunMode, RunParams, WorkerError } from '../worker/protocol'
import type { DebugActions, DebugState } from './debugSlice'
import type { DocumentState, Selection } from './documents'
import type { ModelKeys } from './modelKeys'
import type { RunPause } from './runStatus'
import type { StreamActions, StreamState } from './streamSlice'

/** A graph document as the store knows it (what the graphs table holds). */
export interface GraphEntry {
  id: string
  name: string
  doc: unknown
  trusted: boolean
  allowNetwork: boolean
  /** When it was last saved (ISO-8601), as listed. */
  updatedAt?: string
  /** The run input last typed for this graph (JSON text); a template's first input. */
  input?: string
  /** The revision saved (see GraphRow.rev; absent: 0). */
  rev?: number
  /** In the bin since then (ISO-8601). */
  deletedAt?: string
  /** The tab that saved this revision (`<tab>@<ms it opened>`), when one says. */
  writer?: string
}

/** Saves and lists graph documents (the persistence layer's GraphRepository). */
export interface GraphsPort {
  /** The graphs not in the bin, most recently saved first. */
  list(): Promise<GraphEntry[]>
  /** The graphs in the bin, most recently deleted first. */
  listBin(): Promise<GraphEntry[]>
  /** Both lists from one read. */
  library(): Promise<{ graphs: GraphEntry[]; bin: GraphEntry[] }>
  get(id: string): Promise<GraphEntry | undefined>
  /** Creates or replaces a graph (a new revision), whatever was stored. */
  save(entry: GraphEntry): Promise<void>
  /**
   * Saves the document (and name) over revision `baseRev` only; another revision stored, or
   * the graph in the bin or gone, writes nothing and returns what is stored.
   */
  saveOver(
    entry: GraphEntry,
    baseRev: number,
  ): Promise<
    { ok: true; rev: number; updatedAt: string } | { ok: false; theirs: GraphEntry | null }
  >
  trust(id: string): Promise<void>
  setAllowNetwork(id: string, allowed: boolean): Promise<void>
  /** Keeps the graph's run input, without counting as a change of the graph. */
  saveInput(id: string, input: string): Promise<void>
  /** Moves a graph to the bin; `restore` takes it out. */
  bin(id: string): Promise<void>
  restore(id: string): Promise<void>
  /** Deletes a graph's row for good. */
  delete(id: string): Promise<void>
}

/** What tabs of the app tell each other (a BroadcastChannel in the page). */
export type TabMessage =
  | { type: 'graphSaved'; id: string; rev: number }
  | { type: 'libraryChanged' }
  | { type: 'threadRunning'; threadId: string; running: boolean }
  | { type: 'threadsChanged'; graph: string }

export interface TabBus {
  post(message: TabMessage): void
  /** Calls `handler` with every message another tab posts; returns the unsubscribe. */
  on(handler: (message: TabMessage) => void): () => void
}

/** An edit whose save was under way when the page went away. */
export interface JournalEntry {
  baseRev: number
  doc: unknown
  /**
   * The document a save over `baseRev` was writing when this was journaled: if it landed (the
   * stored revision is `baseRev + 1` with this document), `doc` is an edit on top of it.
   */
  landing?: unknown
  /** As taken: the tab that wrote it (`<tab>@<ms it opened>`) and when (ms). */
  writer?: string
  at?: number
}

/**
 * Edits kept synchronously (localStorage) until IndexedDB has them: a reload or a closed tab
 * in the middle of a save loses nothing.
 */
export interface DraftJournal {
  /** This tab, as its saves mark the revisions they write (`<tab>@<ms it opened>`). */
  readonly writer?: string
  write(graphId: string, entry: JournalEntry): void
  clear(graphId: string): void
  /** The journal a closed tab left for the graph (removed as it is taken), if any. */
  take(graphId: string): Promise<JournalEntry | null>
}

/** The open graph was saved in another tab too, or deleted there. */
export interface DocConflict {
  graphId: string
  kind: 'changed' | 'deleted'
  /** Where both changed the same thing ('changed'). */
  paths: string[]
  /** The other tab's document and its revision ('changed'). */
  theirs?: unknown
  theirsRev?: number
}

export type RunState = 'idle' | 'running' | 'paused' | 'interrupted' | 'done' | 'failed' | 'stopped'

/** A runtime warning of a run, with the super-step it happened in. */
export interface RunWarning {
  step: number
  code: string
  node?: string
  message: string
}

/** A graph to start from: bundled with the app, trusted, runs offline. */
export interface Template {
  id: string
  name: string
  doc: unknown
  /** A first input that makes the template do something interesting. */
  input: unknown
}

/** The library: every saved graph, the one deleted last, a refused import's problems. */
export interface LibraryState {
  graphs: GraphEntry[]
  /** The templates a new graph can start from. */
  templates: readonly Template[]
  /** The graph deleted last, so the user can bring it back. */
  lastDeleted: GraphEntry | null
  /** The problems of a file that was refused on import. */
  importProblems: { fileName: string; issues: GraphIssue[] } | null
  /** The graphs in the bin. */
  bin: GraphEntry[]
  /** The open graph's conflict with another tab, until the user chooses. */
  conflict: DocConflict | null
  /** The open thread is being run by another tab (its Web Lock is held there). */
  runningElsewhere: boolean
}

/** The open document, what is derived from it (once per change), and its editing state. */
export interface DocumentSliceState extends DocumentState {
  /** The document as the format reads it (null: it does not match the format). */
  spec: GraphSpec | null
  /** Its problems (the validator's), for the Problems list, the canvas and the inspector. */
  issues: GraphIssue[]
  /** The state field row to show and focus (a clicked problem); `seq` tells clicks apart. */
  fieldFocus: { index: number; seq: number } | null
  /** The run input (JSON text), kept per graph. */
  input: string
  /** The graph the canvas shows and edits: subgraph names from the root down (`[]`: the root). */
  level: string[]
}

/** The run on the open thread, as the worker reported it. */
export interface RunSliceState {
  runState: RunState
  /** Why the run last stopped advancing, as the worker reported it (null: not paused by a run). */
  pausedBy: RunPause | null
  /** A run that can be continued in place (paused at a step or a pause request). */
  resumable: boolean
  error: WorkerError | null
  interrupts: InterruptInfo[]
  /** What node code logged, newest last: each call's arguments as plain data (see TaskLog). */
  logs: { node: string; level: TaskLog['level']; args: unknown[]; text: string }[]
  /** What the runtime warned about during this thread's runs (a write to a key that is no field, …). */
  runWarnings: RunWarning[]
  /** While a run goes: the subgraph run whose super-step is under way, and its tasks. */
  liveInner: { ns: string; nodes: string[] } | null
  /**
   * Run (or Step) was pressed and the run has not started yet: the graph still opening or
   * compiling, the runtime perhaps still loading. The status says "Starting…".
   */
  runStarting: boolean
}

/** A value of one of the graph's declared settings (`config.configurable.<name>`). */
export type ConfigValue = string | number | boolean

export interface LocalRunSettings {
  recursionLimit: number
  timeoutMs: number
  configurable: Record<string, ConfigValue>
  savedBy?: number
}

/** The user's settings of the workbench. */
export interface SettingsState {
  /** Super-steps a run may take (LangGraph's recursionLimit); kept per thread. */
  recursionLimit: number
  /** Wall time a run may take (0: no limit); kept per thread. */
  timeoutMs: number
  /** The thread's own values of the graph's declared settings (the defaults fill the rest). */
  configurable: Record<string, ConfigValue>
  /** The run drawer's tab (kept across reloads). */
  drawerTab: string
  /**
   * Run settings set in this page, by thread, until a thread list asked for after their save
   * landed shows the thread (`savedBy`: `threadsAsked` when it landed): a list asked for
   * before, whenever it arrives, does not undo them.
   */
  localRunSettings: Record<string, LocalRunSettings>
}

/** What ties the slices together: the open graph, its compile and thread, the message line. */
export interface ShellState {
  /** The open graph's entry (its `doc` is the last saved one; `doc` is the live one). */
  current: GraphEntry | null
  /** The runtime worker's id for the current document, once compiled. */
  graphId: string | null
  /**
   * `graphId` was compiled for reading only: the graph has problems or is not trusted, so
   * its threads can be read (timeline, inspection) but not run, stepped or forked.
   */
  graphReadOnly: boolean
  threadId: string
  message: string | null
}

export interface AppState
  extends
    LibraryState,
    DocumentSliceState,
    RunSliceState,
    SettingsState,
    ShellState,
    DebugState,
    StreamState {}

export interface LibraryActions {
  importDocument(text: string, fileName: string): Promise<void>
  /** Opens a thread file: its graph as a new (untrusted) graph, its checkpoints as a thread. */
  importThread(text: string, fileName: string): Promise<void>
  /** A new graph, empty or from a template's document; `input` is its first run input (JSON text). */
  newGraph(templateDoc?: unknown, name?: string, input?: string): Promise<void>
  renameGraph(name: string): Promise<void>
  duplicateGraph(): Promise<void>
  /** Moves the open graph to the bin (asked first, in the UI). */
  deleteGraph(): Promise<void>
  /** Brings back the graph deleted last. */
  restoreDeleted(): Promise<void>
  /** Takes a graph out of the bin and opens it. */
  restoreFromBin(id: string): Promise<void>
  /** Deletes a graph in the bin for good, with its threads. */
  deleteForever(id: string): Promise<void>
  refreshBin(): Promise<void>
  /** The open document as a file to download. */
  exportCurrent(): { fileName: string; text: string } | null
  dismissImportProblems(): void
}

export interface DocumentActions {
  /** Applies an edit to the open level of the document (autosaved; undoable). */
  edit(edit: GraphEdit): void
  /** Shows a level of the document on the canvas (a subgraph, or `[]` for the root). */
  openLevel(path: string[]): void
  setSelection(selection: Selection): void
  /** Clears the selection, so the inspector shows the state schema, and focuses `state[index]`. */
  focusField(index: number): void
  undo(): void
  redo(): void
  setInput(text: string): void
}

export interface RunActions {
  run(): Promise<void>
  step(): Promise<void>
  /**
   * A chat message: added to `field` as a human message, and the graph runs on the thread
   * (from `checkpointId` when given: a fork, as an edited message or another branch).
   */
  sendChat(field: string, content: string, checkpointId?: string): Promise<void>
  /** One super-step of a subgraph the next step runs (of the paused-in one's, when inside). */
  stepInto(): Promise<void>
  /** Paused inside a subgraph: the rest of it, up to its parent's barrier. */
  stepOut(): Promise<void>
  stop(): Promise<void>
  /** Asks the advancing run to pause at the next barrier. */
  pause(): Promise<void>
  resume(valueText: string): Promise<void>
  /** Starts a run on the current thread (Run, Step, replays, resumes). */
  startRun(mode: RunMode, extra?: Partial<RunParams>): Promise<void>
  /** Forgets the run status (another thread is shown). */
  resetRun(): void
  /** Stops this tab's run of the open thread, if any, before the page leaves the thread. */
  leaveRun(): Promise<void>
}

export interface SettingsActions {
  setDrawerTab(tab: string): void
  /** Sets the open thread's recursion limit (kept with the thread). */
  setRecursionLimit(limit: number): void
  /** Sets the open thread's run timeout in ms, 0 for none (kept with the thread). */
  setTimeoutMs(ms: number): void
  /** Sets (undefined: clears) the open thread's value of a declared setting (kept with the thread). */
  setConfigValue(name: string, value: ConfigValue | undefined): void
  /** Saves the chat-model API keys (base URL → key) locally and hands them to the worker. */
  setModelKeys(keys: ModelKeys): Promise<void>
}

export interface ShellActions {
  init(): Promise<void>
  select(id: string): Promise<void>
  trustCurrent(): Promise<void>
  /** The graph's owner lets its code nodes reach the network (never on for an import). */
  setAllowNetwork(allowed: boolean): Promise<void>
  /** Reloads the thread's newest `limit` checkpoints (default 200). */
  refreshHistory(limit?: number): Promise<void>
  /** Clears the message line (what the last action said). */
  dismissMessage(): void
  /** Resolves the open graph's conflict: mine over theirs, or theirs replacing mine. */
  resolveConflict(choice: 'mine' | 'theirs'): Promise<void>
}

export interface AppActions
  extends
    LibraryActions,
    DocumentActions,
    RunActions,
    SettingsActions,
    ShellActions,
    DebugActions,
    StreamActions {}

export interface AppDeps {
  client: RuntimeRequests
  graphs: GraphsPort
  /** Bundled graphs, saved (trusted) on first start. */
  examples: GraphEntry[]
  /** The templates offered for a new graph. */
  templates?: readonly Template[]
  newId: () => string
  /** The other tabs (absent: this is the only one). */
  bus?: TabBus
  /** Where edits wait synchronously for their save (absent: nowhere). */
  journal?: DraftJournal
  /**
   * Whether the page holds typed text not yet handed to the document (a code editor's draft):
   * another tab's save then waits for it, to be merged with it rather than replace it.
   */
  localEditsPending?: () => boolean
  /** Whether some tab's run holds the thread's lock (Web Locks; absent: never). */
  threadLockHeld?: (threadId: string) => Promise<boolean>
  /** How much of the site's storage is used (navigator.storage.estimate), for a full disk. */
  storageUse?: () => Promise<{ usage: number; quota: number }>
}

/** What every slice gets: the store's set and get, its dependencies, and the compile. */
export interface SliceContext {
  set(partial: Partial<AppState>): void
  get(): AppState & AppActions
  deps: AppDeps
  /** Compiles the open document in the worker unless the compiled one is current. */
  compile(): Promise<void>
  /** Whether the worker's compiled graph is of the document as it is now. */
  compiled(): boolean
  /** Resolves once every save of the document asked for so far has been tried. */
  settleSaves(): Promise<void>
  /** Forgets what this tab knew of a graph's saves (it was deleted for good). */
  forgetGraph(id: string): void
  /** The page's moves between graphs and threads, one at a time (see `navigation.ts`). */
  navigation: Navigation
  /** Opens a graph: the move's own step, for use inside a move (`select` queues one). */
  open(id: string): Promise<void>
}
