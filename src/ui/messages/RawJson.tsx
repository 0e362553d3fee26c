import { JsonView, collapseAllNested, darkStyles, defaultStyles } from 'react-json-view-lite'
import 'react-json-view-lite/dist/index.css'
import { useSyncExternalStore } from 'react'

const dark = () => window.matchMedia('(prefers-color-scheme: dark)')
const subscribe = (f: () => void) => {
  const m = dark()
  m.addEventListener('change', f)
  return () => m.removeEventListener('change', f)
}

/** JSON.stringify that never throws (a value from an import may hold anything). */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined'
  } catch {
    return String(value)
  }
}

/**
 * A value as JSON: short ones inline, objects and lists collapsible (nested levels closed).
 * `root`: the outermost view of a value carries its full JSON on `data-json`. The label
 * names a tree (an inline value is its own text).
 */
export function RawJson({ value, label, root }: { value: unknown; label?: string; root: boolean }) {
  const isDark = useSyncExternalStore(subscribe, () => dark().matches)
  const text = jsonText(value)
  if (value === null || typeof value !== 'object' || text.length <= 60) {
    return (
      <code className="json-inline" title={text.length > 60 ? text : undefined}>
        {text}
      </code>
    )
  }
  return (
    <div
      className="json-tree"
      role={label ? 'group' : undefined}
      aria-label={label}
      data-json={root ? text : undefined}
    >
      <JsonView
        data={value as object}
        shouldExpandNode={collapseAllNested}
        style={isDark ? darkStyles : defaultStyles}
      />
    </div>
  )
}
