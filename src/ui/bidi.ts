import { codePointLabel } from '../lib/codePoint'

/**
 * Bidirectional control characters in names. A node id, field, graph or thread name is the
 * user's text (or an imported file's): U+202E RIGHT-TO-LEFT OVERRIDE in one would reverse
 * how it and the text after it read ("\u202Eevil" shows as "live"), and Hebrew or Arabic in one
 * would pull neighbouring digits and punctuation into its direction. So names are shown
 * isolated (`<Name>`, a `<bdi>`) and with every control character spelled out, `⟨U+202E⟩`.
 */

const CONTROLS: Record<string, string> = {
  '\u061C': 'ARABIC LETTER MARK',
  '\u200E': 'LEFT-TO-RIGHT MARK',
  '\u200F': 'RIGHT-TO-LEFT MARK',
  '\u202A': 'LEFT-TO-RIGHT EMBEDDING',
  '\u202B': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202C': 'POP DIRECTIONAL FORMATTING',
  '\u202D': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202E': 'RIGHT-TO-LEFT OVERRIDE',
  '\u2066': 'LEFT-TO-RIGHT ISOLATE',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2068': 'FIRST STRONG ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
}
const CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/

/** A bidi control character, or a run of other text. */
export type BidiPart = { text: string } | { control: string; code: string; title: string }

/** Whether `text` holds a bidirectional control character. */
export function hasBidiControls(text: string): boolean {
  return CONTROL.test(text)
}

/** `text` cut into runs of text and single control characters. */
export function bidiParts(text: string): BidiPart[] {
  const parts: BidiPart[] = []
  let run = ''
  for (const ch of text) {
    const name = CONTROLS[ch]
    if (name === undefined) {
      run += ch
      continue
    }
    if (run) parts.push({ text: run })
    run = ''
    const code = codePointLabel(ch)
    parts.push({ control: ch, code, title: `${code} ${name}` })
  }
  if (run) parts.push({ text: run })
  return parts
}

/** How a control character is shown: `⟨U+202E⟩`. */
export const shownControl = (code: string) => `⟨${code}⟩`

/**
 * `text` with each control character spelled out, for places that take a string only
 * (`<option>`, `title`, `aria-label`): the same text `<Name>` shows.
 */
export function showBidiControls(text: string): string {
  if (!hasBidiControls(text)) return text
  return bidiParts(text)
    .map((p) => ('text' in p ? p.text : shownControl(p.code)))
    .join('')
}
