import type * as Monaco from 'monaco-editor'

/**
 * Markdown that shows no images: every `![` gets a zero-width space between its two
 * characters, so `![alt](http://…)` and `![alt][ref]` become links (inert until clicked)
 * instead of images Monaco would load as the hover opens. Monaco has no switch for it:
 * standalone Monaco's hover renders `http(s)` images from any Markdown (its
 * `remoteImageIsAllowed` hook is only for VS Code). Raw `<img>` needs no care: Monaco drops
 * HTML from Markdown that does not set `supportHtml`. Applied to the whole text, code too:
 * it needs no Markdown parser, and in code the space is invisible.
 */
export function withoutImages(markdown: string): string {
  return markdown.replaceAll('![', '!\u200B[')
}

/** One part of TypeScript's display text. */
export interface DisplayPart {
  text: string
}

/** What TypeScript's `getQuickInfoAtPosition` answers, as far as a hover needs it. */
export interface QuickInfo {
  displayParts?: DisplayPart[]
  documentation?: DisplayPart[]
  tags?: { name: string; text?: DisplayPart[] | string }[]
  textSpan: { start: number; length: number }
}

const joinParts = (parts: readonly DisplayPart[] | undefined) =>
  (parts ?? []).map((p) => p.text).join('')

function tagText(tag: NonNullable<QuickInfo['tags']>[number]): string {
  const text = typeof tag.text === 'string' ? tag.text : joinParts(tag.text)
  return `*@${tag.name}*${text ? ` — ${text}` : ''}`
}

/**
 * A hover's contents from TypeScript's quick info, as Monaco's own TypeScript hover shows
 * them (signature as code, then the JSDoc, then its tags if `withTags`), without images.
 */
export function quickInfoContents(info: QuickInfo, withTags: boolean): Monaco.IMarkdownString[] {
  const tags = withTags ? (info.tags ?? []).map(tagText).join('  \n\n') : ''
  const docs = [joinParts(info.documentation), tags].filter(Boolean).join('\n\n')
  return [
    { value: withoutImages('```typescript\n' + joinParts(info.displayParts) + '\n```') },
    ...(docs ? [{ value: withoutImages(docs) }] : []),
  ]
}

/**
 * Hover for TypeScript models (the Export dialog's code) in place of Monaco's own, which
 * would render images from the JSDoc of the exported node code.
 */
export function registerTypeScriptHover(monaco: typeof Monaco): void {
  const ts = monaco.typescript.typescriptDefaults
  ts.setModeConfiguration({ ...ts.modeConfiguration, hovers: false })
  monaco.languages.registerHoverProvider('typescript', {
    async provideHover(model, position) {
      const getWorker = await monaco.typescript.getTypeScriptWorker()
      const worker = await getWorker(model.uri)
      if (model.isDisposed()) return undefined
      const info = (await worker.getQuickInfoAtPosition(
        model.uri.toString(),
        model.getOffsetAt(position),
      )) as QuickInfo | undefined
      if (!info || model.isDisposed()) return undefined
      const { start, length } = info.textSpan
      return {
        range: monaco.Range.fromPositions(
          model.getPositionAt(start),
          model.getPositionAt(start + length),
        ),
        contents: quickInfoContents(info, true),
      }
    },
  })
}
