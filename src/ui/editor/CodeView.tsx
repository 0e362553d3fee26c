import { lazy, Suspense } from 'react'

/** Props of a read-only code view. */
export interface CodeViewProps {
  value: string
  language: 'typescript' | 'python' | 'json'
  /** The accessible name, e.g. "LangGraph.js code". */
  label: string
  height?: number | string
}

const MonacoCodeView = lazy(() => import('./MonacoCodeView'))

/**
 * Read-only code with syntax colours: Monaco, loaded lazily, with the text in a `<pre>`
 * until it arrives.
 */
export function CodeView(props: CodeViewProps) {
  const fallback = (
    <pre className="code-view-plain" aria-label={props.label} style={{ height: props.height }}>
      {props.value}
    </pre>
  )
  return (
    <Suspense fallback={fallback}>
      <MonacoCodeView {...props} />
    </Suspense>
  )
}
