import { describe, expect, it } from 'vitest'
import { quickInfoContents, withoutImages } from './hoverMarkdown'

describe('hover Markdown without images', () => {
  it('turns inline and reference images into links and leaves the rest', () => {
    expect(withoutImages('see ![x](http://127.0.0.1:9/x.png) and ![y][ref]')).toBe(
      'see !\u200B[x](http://127.0.0.1:9/x.png) and !\u200B[y][ref]',
    )
    expect(withoutImages('a [link](http://a) and `code`! [b]')).toBe(
      'a [link](http://a) and `code`! [b]',
    )
  })

  it('builds the hover from quick info: signature, JSDoc, tags, none with an image', () => {
    const contents = quickInfoContents(
      {
        displayParts: [{ text: 'const helper' }, { text: ': number' }],
        documentation: [{ text: 'Doc ![x](http://127.0.0.1:9/x.png)' }],
        tags: [{ name: 'see', text: [{ text: '![t](https://e.example/t.png)' }] }],
        textSpan: { start: 0, length: 6 },
      },
      true,
    )
    expect(contents.map((c) => c.value)).toEqual([
      '```typescript\nconst helper: number\n```',
      'Doc !\u200B[x](http://127.0.0.1:9/x.png)\n\n*@see* — !\u200B[t](https://e.example/t.png)',
    ])
    expect(contents.some((c) => c.value.includes('!['))).toBe(false)
    expect(
      quickInfoContents(
        { displayParts: [{ text: 'x' }], textSpan: { start: 0, length: 1 } },
        false,
      ),
    ).toHaveLength(1)
  })
})
