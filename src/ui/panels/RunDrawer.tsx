import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { modelEndpoints } from '../../store/endpoints'
import { DEFAULT_SANDBOX_TIMEOUT_MS } from '../../core/compile/host'
import { useApp } from '../storeContext'
import { ChannelTable } from '../timeline/ChannelTable'
import { DiffView } from '../timeline/DiffView'
import { ForkPanel } from '../timeline/ForkPanel'
import { InputPanel } from '../timeline/InputPanel'
import { InterruptPanel } from '../timeline/InterruptPanel'
import { LogsView } from '../timeline/LogsView'
import { RunStatusLine } from '../timeline/RunStatusLine'
import { RunWarnings } from '../timeline/RunWarnings'
import { ScheduleView } from '../timeline/ScheduleView'
import { ThreadPicker } from '../timeline/ThreadPicker'
import { Timeline } from '../timeline/Timeline'
import { WritesView } from '../timeline/WritesView'
import { BidiText, Name } from '../Name'
import { layoutStorage } from '../layout/workbench'
import { useSplit } from '../layout/useSplit'
import { StreamView } from '../timeline/StreamView'
import { ChatView } from '../timeline/ChatView'
import { EnlargeDrawer } from '../layout/EnlargeDrawer'

/** The timeline and the tabs scroll inside themselves; their panels only clip. */
const CLIP = { overflow: 'hidden' } as const

const TABS = [
  'Channels',
  'versions_seen',
  'Writes',
  'Diff',
  'State',
  'Input',
  'Logs',
  'Interrupt',
  'Stream',
  'Chat',
] as const
type Tab = (typeof TABS)[number]

/** The timeline beside the tabs, each resizable (the saved key is the library's, kept). */
const DRAWER_SPLIT = {
  id: 'superstep-drawer',
  orientation: 'horizontal',
  panels: [
    { id: 'ss-timeline', defaultSize: '34%', minSize: 220, maxSize: '70%' },
    { id: 'ss-run-details', minSize: 320 },
  ],
  storage: layoutStorage,
} as const

/** How long one call of node, router or reducer code may run (main.tsx keeps the default). */
const CODE_CALL_LIMIT_S = DEFAULT_SANDBOX_TIMEOUT_MS / 1000

/**
 * The run drawer: the thread and run settings, the timeline of checkpoints (the spine of
 * debugging), and the tabs that read the selected checkpoint.
 */
export function RunDrawer() {
  const warningCount = useApp((s) => s.runWarnings.length)
  const s = useApp((s) => ({
    recursionLimit: s.recursionLimit,
    setRecursionLimit: s.setRecursionLimit,
    timeoutMs: s.timeoutMs,
    setTimeoutMs: s.setTimeoutMs,
    runState: s.runState,
    error: s.error,
    message: s.message,
    dismissMessage: s.dismissMessage,
    current: s.current,
    trustCurrent: s.trustCurrent,
    setAllowNetwork: s.setAllowNetwork,
    lastDeleted: s.lastDeleted,
    runningElsewhere: s.runningElsewhere,
    restoreDeleted: s.restoreDeleted,
    importThreadFile: s.importThreadFile,
    openCode: s.openCode,
    waiting: s.runState === 'interrupted' && s.interrupts.length > 0,
    runStarting: s.runStarting,
  }))
  const doc = s.current?.doc
  const endpoints = useMemo(() => modelEndpoints(doc), [doc])
  // The tab is kept in the store, so a reload shows the same one.
  const stored = useApp((s) => s.drawerTab)
  const setTab = useApp((s) => s.setDrawerTab)
  const tab: Tab = (TABS as readonly string[]).includes(stored) ? (stored as Tab) : 'Channels'
  const split = useSplit(DRAWER_SPLIT)
  const threadFile = useRef<HTMLInputElement>(null)
  // A run that stops on interrupt(...) shows the reply box (the Chat tab shows it in place).
  // Once nothing waits and no run goes on (answered, another graph or thread opened), the
  // tab the user had comes back, unless they picked one meanwhile.
  const [wasWaiting, setWasWaiting] = useState(false)
  const [shownFrom, setShownFrom] = useState<Tab | null>(null)
  // Switched by the app: the focus follows to the tab shown when it was in the tabs or their
  // panel (on a tab, or on Approve, which goes with its panel once answered), never out of an
  // editor or field elsewhere, nor onto the tabs as a page opens.
  const [switched, setSwitched] = useState({ n: 0, inside: false })
  const focused = useRef(0)
  const switchTo = (to: Tab, back: boolean) => {
    const active = document.activeElement
    // Back, a focus on <body> fell from the panel answered (its buttons go as the run starts).
    const inside = !!active?.closest('.drawer-detail') || (back && active === document.body)
    setSwitched({ n: switched.n + 1, inside })
    setTab(to)
  }
  if (s.waiting !== wasWaiting) {
    setWasWaiting(s.waiting)
    if (s.waiting && tab !== 'Chat' && tab !== 'Interrupt') {
      setShownFrom(tab)
      switchTo('Interrupt', false)
    }
  }
  if (shownFrom && !s.waiting && s.runState !== 'running' && !s.runStarting) {
    setShownFrom(null)
    if (tab === 'Interrupt') switchTo(shownFrom, true)
  }
  useEffect(() => {
    if (focused.current === switched.n) return
    focused.current = switched.n
    const active = document.activeElement
    const onTab = active?.getAttribute('role') === 'tab' && !!active.closest('.drawer-tabs')
    if (switched.inside && (!active || active === document.body || onTab))
      document.getElementById(`run-tab-${TABS.indexOf(tab)}`)?.focus()
  }, [switched, tab])
  const pick = (name: Tab) => {
    setShownFrom(null)
    setTab(name)
  }
  const onKeyDown = (e: KeyboardEvent) => {
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    if (d === 0) return
    e.preventDefault()
    const next = (TABS.indexOf(tab) + d + TABS.length) % TABS.length
    pick(TABS[next] as Tab)
    document.getElementById(`run-tab-${next}`)?.focus()
  }
  return (
    <section className="drawer" aria-label="Run">
      {s.current && !s.current.trusted && (
        <div className="banner warn" role="alert">
          <span>
            <strong>
              <Name>{s.current.name}</Name>
            </strong>{' '}
            was imported. Its code has not run: it runs in a sandbox without your data or the
            network, but only once you say so.
            {endpoints.length > 0 && (
              <>
                {' '}
                Its model nodes call{' '}
                {endpoints.map((e, i) => (
                  <span key={`${e.node}:${i}`}>
                    {i > 0 && ', '}
                    <code>
                      <Name>{e.node}</Name>
                    </code>{' '}
                    →{' '}
                    <code>
                      <BidiText>{e.baseUrl}</BidiText>
                    </code>
                  </span>
                ))}
                , with the conversation; only if you turn Network on.
              </>
            )}
          </span>
          <button type="button" onClick={() => void s.trustCurrent()}>
            Trust and allow running
          </button>
        </div>
      )}
      <div className="drawer-bar">
        <ThreadPicker onImport={() => threadFile.current?.click()} />
        <input
          ref={threadFile}
          type="file"
          accept=".json,application/json"
          aria-label="Import a thread file"
          hidden
          onChange={(e) => {
            const file = e.target.files?.[0]
            e.target.value = ''
            // The worker reads the file itself: the page never parses a big thread.
            if (file) void s.importThreadFile(file, file.name)
          }}
        />
        <div className="drawer-group" role="group" aria-label="Run settings">
          <label title="How many super-steps a run may take before it stops with GraphRecursionError">
            <span>Recursion limit</span>
            <input
              type="number"
              min={1}
              aria-label="Recursion limit"
              value={s.recursionLimit}
              onChange={(e) => s.setRecursionLimit(Number(e.target.value))}
              style={{ width: '3.8rem' }}
            />
          </label>
          <label
            title={`Wall time the whole run may spend advancing (paused time does not count); empty: no limit. Each code call is stopped after ${CODE_CALL_LIMIT_S} s.`}
          >
            <span>Timeout (s)</span>
            <input
              type="number"
              min={0}
              step={1}
              aria-label="Run timeout in seconds"
              aria-describedby="code-call-limit"
              placeholder="none"
              value={s.timeoutMs > 0 ? s.timeoutMs / 1000 : ''}
              onChange={(e) => s.setTimeoutMs(Number(e.target.value) * 1000)}
              style={{ width: '4.2rem' }}
            />
          </label>
          <span
            id="code-call-limit"
            className="muted call-limit"
            title="Each call of node, router or reducer code that runs longer is stopped (NodeTimeoutError) and its sandbox restarted. A model call has its own timeout: 60 s, or the one set on its node."
          >
            each code call ≤ {CODE_CALL_LIMIT_S} s
          </span>
          <label title="Off by default: neither the code nor the model nodes of this graph reach the network until you allow it here">
            <input
              type="checkbox"
              aria-label="Allow network"
              checked={s.current?.allowNetwork === true}
              disabled={!s.current?.trusted}
              onChange={(e) => void s.setAllowNetwork(e.target.checked)}
            />
            <span>Network</span>
          </label>
        </div>
        <div className="drawer-status">
          <RunStatusLine />
          {s.runningElsewhere && (
            <span
              className="badge warn"
              role="status"
              title="Another tab of Superstep runs this thread: Run and Step wait until it ends there"
            >
              Running in another tab
            </span>
          )}
          {s.lastDeleted && (
            <button
              type="button"
              className="undo-delete"
              aria-label={`Undo delete of ${s.lastDeleted.name}`}
              title={`Take ${s.lastDeleted.name} out of the bin`}
              onClick={() => void s.restoreDeleted()}
            >
              Undo delete
            </button>
          )}
        </div>
      </div>
      {s.message && (
        <div className="banner notice" role="status" aria-label="Message">
          <span className="message">
            <BidiText>{s.message}</BidiText>
          </span>
          <button
            type="button"
            className="icon"
            aria-label="Dismiss the message"
            onClick={s.dismissMessage}
          >
            ×
          </button>
        </div>
      )}
      {s.error && (
        <div className="banner error" role="alert" aria-label="Run error">
          <span>
            <strong>{s.error.name}</strong>
            {s.error.node && (
              <>
                {' '}
                in node{' '}
                <code>
                  <Name>{s.error.node}</Name>
                </code>
              </>
            )}
            {s.error.line !== undefined && <> at line {s.error.line}</>}:{' '}
            <BidiText>{s.error.message}</BidiText>
          </span>
          {s.error.node && (
            <button
              type="button"
              onClick={() =>
                s.error?.node && s.openCode(s.error.node, s.error.line, s.error.column)
              }
            >
              Open code
            </button>
          )}
        </div>
      )}
      <div className="drawer-body" {...split.group}>
        <div {...split.panel('ss-timeline')}>
          <div style={CLIP}>
            <Timeline />
          </div>
        </div>
        <div {...split.separator('ss-timeline', 'Timeline', 'Drag to resize the timeline')} />
        <div {...split.panel('ss-run-details')}>
          <div className="drawer-detail">
            <div className="drawer-tabs">
              <div className="tabs" role="tablist" aria-label="Run details" onKeyDown={onKeyDown}>
                {TABS.map((name, i) => (
                  <button
                    type="button"
                    role="tab"
                    key={name}
                    id={`run-tab-${i}`}
                    aria-selected={name === tab}
                    aria-controls="run-tabpanel"
                    tabIndex={name === tab ? 0 : -1}
                    onClick={() => pick(name)}
                  >
                    {name}
                    {name === 'Writes' && warningCount > 0 && (
                      <span
                        className="badge warn"
                        title={`${warningCount} runtime warning${warningCount > 1 ? 's' : ''}`}
                      >
                        {warningCount}
                      </span>
                    )}
                  </button>
                ))}
              </div>
              <EnlargeDrawer />
            </div>
            {/* Focusable (ARIA's tabs pattern): a long table with nothing to focus in it
                scrolls from the keyboard too. */}
            <div
              className="tabpanel"
              role="tabpanel"
              tabIndex={0}
              id="run-tabpanel"
              aria-labelledby={`run-tab-${TABS.indexOf(tab)}`}
            >
              {tab === 'Channels' && <ChannelTable />}
              {tab === 'versions_seen' && <ScheduleView />}
              {tab === 'Writes' && (
                <>
                  <RunWarnings />
                  <WritesView />
                </>
              )}
              {tab === 'Diff' && <DiffView />}
              {tab === 'State' && <ForkPanel />}
              {tab === 'Input' && <InputPanel />}
              {tab === 'Logs' && <LogsView />}
              {tab === 'Interrupt' && <InterruptPanel onEditState={() => pick('State')} />}
              {tab === 'Stream' && <StreamView />}
              {tab === 'Chat' && <ChatView onEditState={() => pick('State')} />}
            </div>
          </div>
        </div>
      </div>
    </section>
  )
}
