import { JsonView, collapseAllNested, darkStyles, defaultStyles } from 'react-json-view-lite'
import 'react-json-view-lite/dist/index.css'
import { useSyncExternalStore } from 'react'

const dark = () => window.matchMedia('(prefers-color-scheme: dark)')
const subscribe = (f: () => void) => {
  const m = dark()
  m.addEventListener('change', f)
  return () => m.removeEventListener('change', f)
}

/** A value as JSON: short ones inline, objects and lists collapsible (nested levels closed). */
export function JsonValue({ value, label }: { value: unknown; label?: string }) {
  const isDark = useSyncExternalStore(subscribe, () => dark().matches)
  const text = JSON.stringify(value) ?? 'undefined'
  if (value === null || typeof value !== 'object' || text.length <= 60) {
    return (
      <code className="json-inline" aria-label={label} title={text.length > 60 ? text : undefined}>
        {text}
      </code>
    )
  }
  return (
    <div className="json-tree" aria-label={label} data-json={text}>
      <JsonView
        data={value as object}
        shouldExpandNode={collapseAllNested}
        style={isDark ? darkStyles : defaultStyles}
      />
    </div>
  )
}
