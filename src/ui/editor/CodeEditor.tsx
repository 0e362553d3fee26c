import { Component, lazy, Suspense, type ReactNode } from 'react'
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
}

const MonacoCodeEditor = lazy(() => import('./MonacoCodeEditor'))

/** Starts loading Monaco now (e.g. when the browser is idle), so the first editor opens fast. */
export function preloadCodeEditor(): void {
  void import('./MonacoCodeEditor')
}

/**
 * A JavaScript code editor: Monaco, loaded lazily on first use, with a plain textarea that
 * already works for typing until it arrives (and stays if Monaco fails to load).
 */
export function CodeEditor(props: CodeEditorProps) {
  const fallback = <PlainCodeEditor {...props} />
  return (
    <LoadBoundary fallback={fallback}>
      <Suspense fallback={fallback}>
        <MonacoCodeEditor {...props} />
      </Suspense>
    </LoadBoundary>
  )
}

/** The textarea stand-in, same props and accessible name as the editor. */
export function PlainCodeEditor({ value, onChange, onBlur, label, height }: CodeEditorProps) {
  return (
    <textarea
      className="code-editor code-plain"
      aria-label={label}
      value={value}
      spellCheck={false}
      autoCapitalize="off"
      autoComplete="off"
      style={{ height: height ?? 160 }}
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
