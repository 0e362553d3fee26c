import { bidiParts, hasBidiControls, shownControl } from './bidi'
import './name.css'

/** Text with its bidi control characters spelled out and marked (their names as tooltips). */
export function BidiText({ children }: { children: string }) {
  if (!hasBidiControls(children)) return <>{children}</>
  return (
    <>
      {bidiParts(children).map((p, i) =>
        'text' in p ? (
          p.text
        ) : (
          <span key={i} className="bidi-control" title={p.title}>
            {shownControl(p.code)}
          </span>
        ),
      )}
    </>
  )
}

/**
 * A name the user gave (node id, field, graph, thread): isolated from the text around it
 * (`<bdi>`: its direction neither leaks out nor is taken from outside) and with its bidi
 * control characters shown, so "\u202Eevil" reads `⟨U+202E⟩evil`, not "live". Its text is
 * what a screen reader reads too. Sentences that contain names (problem messages) use
 * `<BidiText>`: shown controls, no isolation.
 */
export function Name({ children }: { children: string }) {
  return (
    <bdi className="name">
      <BidiText>{children}</BidiText>
    </bdi>
  )
}
