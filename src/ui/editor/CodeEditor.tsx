import {
  Component,
  lazy,
  Suspense,
  useEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
} from 'react'
import { useWorkbench } from '../layout/workbench'
import type { CodeKind } from './typings'

/** A problem to mark inside the code, 1-based like GraphIssue's `line`/`column`. */
export interface CodeMarker {
  message: string
  line: number
  column: number
  severity: 'error' | 'warning'
}

/** Props of the code editor; the value is controlled. */
export interface CodeEditorProps {
  /** The code shown. */
  value: string
  /** Called with the whole new text on every edit. */
  onChange(value: string): void
  /** Called when the editor loses focus (commit pending edits here). */
  onBlur?(): void
  /** The accessible name, e.g. "Code of inc". */
  label: string
  /** What the code is: decides the type it is checked against (`NodeFn`, `RouterFn`, …). */
  code: CodeKind
  /** The graph's declarations (`typingsFor(doc)`), so `state.` completes field names. */
  typings?: string
  /** Problems found elsewhere (the validator), marked in the code. */
  markers?: readonly CodeMarker[]
  /** Height in pixels; 160 unless told. */
  height?: number
  /** Show and focus this line (1-based); a new `seq` asks again. */
  reveal?: { line: number; column?: number; seq: number } | undefined
  /** Fill the parent's height instead of `height` (set by the frame when it is maximised). */
  fill?: boolean | undefined
}

/** Where the editor is: in its place, over the run drawer, or over the whole window. */
type Placement = 'inline' | 'drawer' | 'window'

const MonacoCodeEditor = lazy(() => import('./MonacoCodeEditor'))

/**
 * Starts loading Monaco now (main.tsx: when the page is idle), so the first editor opens
 * fast. A failed load is left to the first editor shown, which keeps its plain textarea.
 */
export function preloadCodeEditor(): void {
  import('./MonacoCodeEditor').catch(() => undefined)
}

/**
 * A JavaScript code editor: Monaco, loaded lazily on first use, with a plain textarea that
 * already works for typing until it arrives (and stays if Monaco fails to load).
 * It can take the whole run drawer or the whole window (its buttons, or Alt+Enter), and
 * Escape brings it back; the same editor moves, so the cursor and undo history stay.
 */
export function CodeEditor(props: CodeEditorProps) {
  const [placement, setPlacement] = useState<Placement>('inline')
  const frame = useRef<HTMLDivElement>(null)
  const workbench = useWorkbench()
  const drawerRect = useElementRect(placement === 'drawer' ? workbench?.element('drawer') : null)
  const place = (next: Placement) => {
    setPlacement(next)
    // The editor keeps the keyboard: focus its text (Monaco's or the textarea) after the move.
    requestAnimationFrame(() =>
      frame.current?.querySelector<HTMLElement>('.native-edit-context, textarea')?.focus(),
    )
  }
  const toggle = (target: Placement) => {
    // A collapsed drawer opens to take the editor.
    if (target === 'drawer' && placement !== 'drawer') workbench?.expand('drawer')
    place(placement === target ? 'inline' : target)
  }
  const onKeyDown = (e: KeyboardEvent) => {
    // Monaco keeps the keys it uses (closing its suggestions, find, a selection) to itself.
    if (e.defaultPrevented) return
    if (e.key === 'Escape' && placement !== 'inline') {
      e.preventDefault()
      e.stopPropagation()
      place('inline')
    } else if (e.key === 'Enter' && e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
      e.preventDefault()
      e.stopPropagation()
      toggle('window')
    }
  }
  const large = placement !== 'inline'
  const style: CSSProperties | undefined =
    placement === 'drawer' && drawerRect
      ? {
          top: drawerRect.top,
          left: drawerRect.left,
          width: drawerRect.width,
          height: drawerRect.height,
        }
      : undefined
  const editorProps = { ...props, fill: large }
  const fallback = <PlainCodeEditor {...editorProps} />
  return (
    <>
      {/* Holds the editor's place in the panel while it is elsewhere: nothing below moves. */}
      {large && <div className="code-frame-placeholder" style={{ height: props.height ?? 160 }} />}
      <div
        ref={frame}
        className={`code-frame code-frame-${placement}`}
        style={style}
        role={large ? 'region' : undefined}
        aria-label={large ? `${props.label} (maximised)` : undefined}
        onKeyDown={onKeyDown}
      >
        <div className="code-frame-bar">
          {large && <span className="code-frame-title">{props.label}</span>}
          {large && <span className="muted code-frame-hint">Escape returns</span>}
          {workbench && (
            <button
              type="button"
              className="code-frame-button"
              aria-label={`${props.label} in the run drawer`}
              aria-pressed={placement === 'drawer'}
              title={placement === 'drawer' ? 'Back in its place (Escape)' : 'Fill the run drawer'}
              onClick={() => toggle('drawer')}
            >
              <FrameIcon kind="drawer" />
            </button>
          )}
          <button
            type="button"
            className="code-frame-button"
            aria-label={`Maximise ${props.label}`}
            aria-pressed={placement === 'window'}
            title={
              placement === 'window'
                ? 'Back in its place (Escape or Alt+Enter)'
                : 'Fill the window (Alt+Enter)'
            }
            onClick={() => toggle('window')}
          >
            <FrameIcon kind={placement === 'window' ? 'restore' : 'window'} />
          </button>
        </div>
        <LoadBoundary fallback={fallback}>
          <Suspense fallback={fallback}>
            <MonacoCodeEditor {...editorProps} />
          </Suspense>
        </LoadBoundary>
      </div>
    </>
  )
}

/** The viewport rectangle of `el`, followed as it moves or resizes (null: not followed). */
function useElementRect(el: HTMLElement | null | undefined): DOMRect | null {
  const [rect, setRect] = useState<DOMRect | null>(null)
  useEffect(() => {
    if (!el) return
    const update = () => setRect(el.getBoundingClientRect())
    update()
    const observer = new ResizeObserver(update)
    observer.observe(el)
    window.addEventListener('resize', update)
    return () => {
      observer.disconnect()
      window.removeEventListener('resize', update)
    }
  }, [el])
  return el ? rect : null
}

function FrameIcon({ kind }: { kind: 'drawer' | 'window' | 'restore' }) {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <rect x="1.5" y="2" width="13" height="12" rx="1.5" fill="none" stroke="currentColor" />
      {kind === 'drawer' && <rect x="2" y="9" width="12" height="4.5" fill="currentColor" />}
      {kind === 'window' && (
        <path
          d="M5 6.5V5h1.5M11 6.5V5H9.5M5 9.5V11h1.5M11 9.5V11H9.5"
          fill="none"
          stroke="currentColor"
        />
      )}
      {kind === 'restore' && <rect x="5" y="5.5" width="6" height="5" fill="currentColor" />}
    </svg>
  )
}

/** The textarea stand-in, same props and accessible name as the editor. */
export function PlainCodeEditor(props: CodeEditorProps) {
  const { value, onChange, onBlur, label, height, fill } = props
  return (
    <textarea
      className="code-editor code-plain"
      aria-label={label}
      value={value}
      spellCheck={false}
      autoCapitalize="off"
      autoComplete="off"
      style={fill ? { height: '100%' } : { height: height ?? 160 }}
      onChange={(e) => onChange(e.target.value)}
      onBlur={() => onBlur?.()}
    />
  )
}

/** Shows `fallback` for good if the Monaco chunk fails to load (offline, stale deploy). */
class LoadBoundary extends Component<{ fallback: ReactNode; children: ReactNode }> {
  override state = { failed: false }
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true }
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children
  }
}
