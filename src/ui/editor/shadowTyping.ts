import type * as Monaco from 'monaco-editor'
import { quickInfoContents, type QuickInfo } from './hoverMarkdown'
import {
  flattenMessage,
  symbolEntries,
  toCodeSpan,
  wrapCode,
  type ShadowText,
  type TsCompletionEntry,
} from './shadow'

type MonacoApi = typeof Monaco
type Model = Monaco.editor.ITextModel

/** The hidden, typed twin of a visible code model (see shadow.ts). */
interface Shadow {
  model: Model
  wrapped: ShadowText
}

const shadows = new Map<string, Shadow>()
const DIAGNOSTICS_DELAY_MS = 250

/**
 * Gives `visible` a hidden shadow model typed as `contextType`, kept in step with every
 * edit, and marks the syntax errors the TypeScript worker finds in it on `visible`.
 * Returns a function that changes the context type, and the disposable.
 */
export function attachShadow(
  monaco: MonacoApi,
  visible: Model,
  contextType: string,
): { setContextType(type: string): void; dispose(): void } {
  let type = contextType
  const uri = visible.uri.with({ path: visible.uri.path.replace(/\.js$/, '') + '.typed.js' })
  // Not 'javascript': the built-in language features must leave the shadow alone.
  const model = monaco.editor.createModel('', 'plaintext', uri)
  const shadow: Shadow = { model, wrapped: wrapCode('', type) }
  shadows.set(visible.uri.toString(), shadow)
  let timer: ReturnType<typeof setTimeout> | undefined
  const sync = () => {
    shadow.wrapped = wrapCode(visible.getValue(), type)
    model.setValue(shadow.wrapped.text)
    clearTimeout(timer)
    timer = setTimeout(() => void markSyntax(monaco, visible, shadow), DIAGNOSTICS_DELAY_MS)
  }
  sync()
  const listener = visible.onDidChangeContent(sync)
  let disposed = false
  const dispose = () => {
    if (disposed) return
    disposed = true
    clearTimeout(timer)
    listener.dispose()
    willDispose.dispose()
    shadows.delete(visible.uri.toString())
    model.dispose()
  }
  const willDispose = visible.onWillDispose(dispose)
  return {
    setContextType(next) {
      if (next === type) return
      type = next
      sync()
    },
    dispose,
  }
}

async function shadowWorker(monaco: MonacoApi, shadow: Shadow) {
  const getWorker = await monaco.typescript.getJavaScriptWorker()
  return getWorker(shadow.model.uri)
}

async function markSyntax(monaco: MonacoApi, visible: Model, shadow: Shadow) {
  if (shadow.model.isDisposed()) return
  let diagnostics: Awaited<
    ReturnType<Monaco.typescript.TypeScriptWorker['getSyntacticDiagnostics']>
  >
  try {
    const worker = await shadowWorker(monaco, shadow)
    diagnostics = await worker.getSyntacticDiagnostics(shadow.model.uri.toString())
  } catch (error) {
    // The editor closed (or switched models) while the worker was answering: the worker
    // no longer knows the shadow file. Nothing to mark; anything else is a real fault.
    if (shadow.model.isDisposed() || visible.isDisposed() || isMissingFile(error)) return
    throw error
  }
  if (visible.isDisposed() || shadow.model.isDisposed()) return
  const length = visible.getValueLength()
  const markers = diagnostics.map((d): Monaco.editor.IMarkerData => {
    const span = toCodeSpan(d.start ?? 0, d.length ?? 0, shadow.wrapped.prefixLength, length)
    const from = visible.getPositionAt(span.start)
    const to = visible.getPositionAt(span.end)
    return {
      severity: monaco.MarkerSeverity.Error,
      message: flattenMessage(d.messageText),
      startLineNumber: from.lineNumber,
      startColumn: from.column,
      endLineNumber: to.lineNumber,
      endColumn: to.column,
      code: String(d.code),
    }
  })
  monaco.editor.setModelMarkers(visible, 'javascript', markers)
}

const isMissingFile = (error: unknown) =>
  /Could not find source file/.test(error instanceof Error ? error.message : String(error))

/** Completion and hover for every shadowed JavaScript model, answered from its shadow. */
export function registerShadowProviders(monaco: MonacoApi): void {
  const { languages } = monaco
  const kindOf = (kind: string): Monaco.languages.CompletionItemKind => {
    const k = languages.CompletionItemKind
    const table: Record<string, Monaco.languages.CompletionItemKind> = {
      property: k.Field,
      method: k.Method,
      function: k.Function,
      'local function': k.Function,
      var: k.Variable,
      let: k.Variable,
      const: k.Constant,
      'local var': k.Variable,
      parameter: k.Variable,
      class: k.Class,
      interface: k.Interface,
      type: k.Interface,
      keyword: k.Keyword,
      string: k.Value,
    }
    return table[kind] ?? k.Property
  }
  /** A question to the shadow's worker; no answer when the shadow went away meanwhile. */
  const ask = async <T>(
    shadow: Shadow,
    question: (worker: Monaco.typescript.TypeScriptWorker, file: string) => Promise<T>,
  ): Promise<T | undefined> => {
    try {
      return await question(await shadowWorker(monaco, shadow), shadow.model.uri.toString())
    } catch (error) {
      if (shadow.model.isDisposed() || isMissingFile(error)) return undefined
      throw error
    }
  }
  languages.registerCompletionItemProvider('javascript', {
    triggerCharacters: ['.', '"', "'"],
    async provideCompletionItems(model, position) {
      const shadow = shadows.get(model.uri.toString())
      if (!shadow) return undefined
      const offset = model.getOffsetAt(position)
      const at = offset + shadow.wrapped.prefixLength
      const info = await ask(
        shadow,
        (worker, file) =>
          worker.getCompletionsAtPosition(file, at) as Promise<
            { entries: TsCompletionEntry[] } | undefined
          >,
      )
      if (!info || model.isDisposed()) return undefined
      const word = model.getWordUntilPosition(position)
      const wordRange = new monaco.Range(
        position.lineNumber,
        word.startColumn,
        position.lineNumber,
        word.endColumn,
      )
      const length = model.getValueLength()
      const suggestions = symbolEntries(info.entries).map((e): Monaco.languages.CompletionItem => {
        let range: Monaco.IRange = wordRange
        if (e.replacementSpan) {
          const span = toCodeSpan(
            e.replacementSpan.start,
            e.replacementSpan.length,
            shadow.wrapped.prefixLength,
            length,
          )
          range = monaco.Range.fromPositions(
            model.getPositionAt(span.start),
            model.getPositionAt(span.end),
          )
        }
        return {
          label: e.name,
          insertText: e.insertText ?? e.name,
          sortText: e.sortText,
          kind: kindOf(e.kind),
          range,
        }
      })
      return { suggestions }
    },
  })
  languages.registerHoverProvider('javascript', {
    async provideHover(model, position) {
      const shadow = shadows.get(model.uri.toString())
      if (!shadow) return undefined
      const at = model.getOffsetAt(position) + shadow.wrapped.prefixLength
      const info = await ask(
        shadow,
        (worker, file) => worker.getQuickInfoAtPosition(file, at) as Promise<QuickInfo | undefined>,
      )
      if (!info || model.isDisposed()) return undefined
      const span = toCodeSpan(
        info.textSpan.start,
        info.textSpan.length,
        shadow.wrapped.prefixLength,
        model.getValueLength(),
      )
      return {
        range: monaco.Range.fromPositions(
          model.getPositionAt(span.start),
          model.getPositionAt(span.end),
        ),
        // The JSDoc is the user's Markdown: shown without images (hoverMarkdown.ts).
        contents: quickInfoContents(info, false),
      }
    },
  })
}
