import { useSyncExternalStore } from 'react'

interface Formats {
  time: Intl.DateTimeFormat
  date: Intl.DateTimeFormat
}

/**
 * The page's first Intl formatter costs a cold page 25 to 30 ms (its locale data), and the
 * library's rows are drawn in the task that draws the page's first frame: the formatters are
 * made once that frame is painted, and the rows' times show in the next one.
 */
let formats: Formats | null = null
let scheduled = false
const listeners = new Set<() => void>()

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (!formats && !scheduled) {
    scheduled = true
    // After the next paint: a frame callback runs before it, a task queued there after it.
    requestAnimationFrame(() =>
      setTimeout(() => {
        formats = {
          time: new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }),
          date: new Intl.DateTimeFormat(undefined, { dateStyle: 'short' }),
        }
        for (const l of listeners) l()
      }),
    )
  }
  return () => listeners.delete(listener)
}

const getFormats = () => formats

/** A library row's date, short enough for one line: the time today, else the date. */
export function ShortWhen({ iso }: { iso: string }) {
  const f = useSyncExternalStore(subscribe, getFormats, getFormats)
  const d = new Date(iso)
  return (
    <time className="muted when" dateTime={iso} title={`Last change ${iso}`}>
      {f && (new Date().toDateString() === d.toDateString() ? f.time : f.date).format(d)}
    </time>
  )
}
