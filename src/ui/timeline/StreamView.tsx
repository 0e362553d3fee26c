import './stream.css'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { StreamChunk } from '../../store/streamSlice'
import { useApp } from '../storeContext'
import { Name } from '../Name'
import { JsonValue } from './JsonValue'

const MODES = ['values', 'updates', 'messages', 'custom', 'debug', 'checkpoints', 'tasks'] as const
const ROW = 24

/** A chunk's payload in one line, for its row (the whole of it shows when picked). */
function preview(payload: unknown): string {
  const text = JSON.stringify(payload) ?? String(payload)
  return text.length > 160 ? `${text.slice(0, 160)}…` : text
}

/**
 * The Stream tab: every chunk of the open thread's runs as LangGraph's `stream()` yields
 * them (all modes, subgraphs' too), live while the tab is open, filtered by mode and node;
 * a chunk's step opens its checkpoint.
 */
export function StreamView() {
  const s = useApp((s) => ({
    chunks: s.streamChunks,
    threadId: s.threadId,
    watchStream: s.watchStream,
    clearStream: s.clearStream,
    timeline: s.timeline,
    selectCheckpoint: s.selectCheckpoint,
  }))
  const { watchStream, clearStream, threadId } = s
  // Watched while the tab shows this thread: its runs from now on stream to the page.
  useEffect(() => {
    clearStream()
    void watchStream(true)
    return () => void watchStream(false)
  }, [threadId, watchStream, clearStream])
  const [modes, setModes] = useState<ReadonlySet<string>>(
    () => new Set(['updates', 'custom', 'messages']),
  )
  const [node, setNode] = useState('')
  const [picked, setPicked] = useState<number | null>(null)
  const nodes = useMemo(
    () => [...new Set(s.chunks.flatMap((c) => (c.node ? [c.node] : [])))].sort(),
    [s.chunks],
  )
  const shown = useMemo(
    () => s.chunks.filter((c) => modes.has(c.mode) && (!node || c.node === node)),
    [s.chunks, modes, node],
  )
  const scroller = useRef<HTMLDivElement>(null)
  // The virtualizer's functions change every render; this component is not memoized anyway.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtual = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 12,
  })
  const chosen = shown.find((c) => c.seq === picked) ?? null
  const openStep = (c: StreamChunk) => {
    const at = s.timeline.find((t) => t.step === c.step)
    if (at) void s.selectCheckpoint(at.checkpointId)
  }
  const toggle = (m: string) =>
    setModes((old) => {
      const next = new Set(old)
      if (next.has(m)) next.delete(m)
      else next.add(m)
      return next
    })
  return (
    <div className="stream-view">
      <div className="stream-filters" role="group" aria-label="Stream filters">
        {MODES.map((m) => (
          <label key={m} className="stream-mode">
            <input type="checkbox" checked={modes.has(m)} onChange={() => toggle(m)} />
            <span>{m}</span>
          </label>
        ))}
        <label>
          <span>Node </span>
          <select aria-label="Stream node" value={node} onChange={(e) => setNode(e.target.value)}>
            <option value="">(any)</option>
            {nodes.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <span className="muted">
          {shown.length} of {s.chunks.length} chunks
        </span>
      </div>
      {s.chunks.length === 0 ? (
        <p className="muted">
          {s.timeline.length > 0 &&
            'The stream is recorded while this tab is open: this thread’s runs so far came before it. '}
          Run the graph (F5): each chunk of LangGraph&rsquo;s <code>stream()</code> shows here as it
          comes, in every mode and from inside subgraphs too.
        </p>
      ) : (
        <div className="stream-body">
          <div className="stream-list" ref={scroller} role="list" aria-label="Stream chunks">
            <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
              {virtual.getVirtualItems().map((v) => {
                const c = shown[v.index] as StreamChunk
                return (
                  <div
                    key={c.seq}
                    role="listitem"
                    className={`stream-row${c.seq === picked ? ' picked' : ''}`}
                    data-mode={c.mode}
                    style={{ transform: `translateY(${v.start}px)`, height: ROW }}
                    onClick={() => setPicked(c.seq)}
                  >
                    <button
                      type="button"
                      className="link stream-step"
                      title="Show this step's checkpoint"
                      onClick={(e) => {
                        e.stopPropagation()
                        openStep(c)
                      }}
                    >
                      step {c.step}
                    </button>
                    <span className={`stream-mode-tag ${c.mode}`}>{c.mode}</span>
                    {c.path.length > 0 && (
                      <span className="muted stream-path">
                        <Name>{c.path.join(' › ')}</Name>
                      </span>
                    )}
                    {c.node && (
                      <code className="stream-node">
                        <Name>{c.node}</Name>
                      </code>
                    )}
                    <span className="stream-preview">{preview(c.payload)}</span>
                  </div>
                )
              })}
            </div>
          </div>
          {chosen && (
            <section className="stream-detail" aria-label="Stream chunk">
              <JsonValue value={chosen.payload} label={`${chosen.mode} chunk`} />
            </section>
          )}
        </div>
      )}
    </div>
  )
}
