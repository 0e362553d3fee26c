import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { bidiParts, hasBidiControls, showBidiControls } from './bidi'
import { BidiText, Name } from './Name'

const RLO = '\u202E'
const ALL = '\u061C\u200E\u200F\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069'

describe('names with bidi control characters', () => {
  it('spells out every bidi control character and leaves other text alone', () => {
    expect(showBidiControls(`${RLO}evil`)).toBe('⟨U+202E⟩evil')
    const plain = 'node_1 שלום ✦'
    expect(showBidiControls(plain)).toBe(plain)
    expect(hasBidiControls(plain)).toBe(false)
    const parts = bidiParts(ALL)
    expect(parts).toHaveLength(12)
    expect(parts.every((p) => 'control' in p)).toBe(true)
    expect(showBidiControls(ALL)).toBe(
      '⟨U+061C⟩⟨U+200E⟩⟨U+200F⟩⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩⟨U+202E⟩⟨U+2066⟩⟨U+2067⟩⟨U+2068⟩⟨U+2069⟩',
    )
  })

  it('<Name> isolates the name and shows its overrides, with their names as tooltips', () => {
    const html = renderToStaticMarkup(
      <p>
        Node <Name>{`${RLO}evil`}</Name> ran
      </p>,
    )
    expect(html).toBe(
      '<p>Node <bdi class="name"><span class="bidi-control" title="U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>evil</bdi> ran</p>',
    )
    expect(html).not.toContain(RLO)
    // Text a screen reader reads: the name as shown.
    expect(html.replace(/<[^>]+>/g, '')).toBe('Node ⟨U+202E⟩evil ran')
  })

  it('a plain name is only isolated; <BidiText> shows controls without isolating', () => {
    expect(renderToStaticMarkup(<Name>counter</Name>)).toBe('<bdi class="name">counter</bdi>')
    expect(renderToStaticMarkup(<BidiText>{`Node "${RLO}x" is unreachable`}</BidiText>)).toBe(
      'Node &quot;<span class="bidi-control" title="U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>x&quot; is unreachable',
    )
  })
})
