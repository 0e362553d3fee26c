import { Editor } from '@monaco-editor/react'
import type * as Monaco from 'monaco-editor'
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import type { CodeEditorProps } from './CodeEditor'
import { PlainCodeEditor } from './CodeEditor'
import { monaco, setGraphTypings } from './monacoSetup'
import { attachShadow } from './shadowTyping'
import { TAB_HINT_HEIGHT, TabHint, trackTabFocusKey } from './TabHint'
import { codeContextType } from './typings'

let modelCount = 0
const OPTIONS: Monaco.editor.IStandaloneEditorConstructionOptions = {
  minimap: { enabled: false },
  lineNumbers: 'off',
  glyphMargin: false,
  folding: false,
  lineDecorationsWidth: 6,
  scrollBeyondLastLine: false,
  wordWrap: 'on',
  tabSize: 2,
  fontSize: 12,
  automaticLayout: true,
  fixedOverflowWidgets: true,
  renderLineHighlight: 'none',
  overviewRulerLanes: 0,
  scrollbar: { alwaysConsumeMouseWheel: false },
  // Typing over a selection replaces it: Select All then `(` would wrap the old code instead
  // and leave its `)` after what is typed next, a stray bracket that breaks the node.
  autoSurround: 'never',
}

const darkScheme = () => window.matchMedia('(prefers-color-scheme: dark)')
const onSchemeChange = (notify: () => void) => {
  const query = darkScheme()
  query.addEventListener('change', notify)
  return () => query.removeEventListener('change', notify)
}

/** The Monaco side of `CodeEditor` (default export for `React.lazy`). */
export default function MonacoCodeEditor(props: CodeEditorProps) {
  const { value, onChange, label, code, typings, markers, height, fill } = props
  const [path] = useState(() => `file:///superstep/code/editor${++modelCount}.js`)
  const theme = useSyncExternalStore(onSchemeChange, () =>
    darkScheme().matches ? 'vs-dark' : 'light',
  )
  const [model, setModel] = useState<Monaco.editor.ITextModel | null>(null)
  const [editor, setEditor] = useState<Monaco.editor.IStandaloneCodeEditor | null>(null)
  const reveal = props.reveal
  useEffect(() => {
    if (!editor || !reveal) return
    const position = { lineNumber: reveal.line, column: reveal.column ?? 1 }
    editor.revealLineInCenter(reveal.line)
    editor.setPosition(position)
    editor.focus()
    // Seq, not the object: the same line asked for again is revealed again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editor, reveal?.seq])
  const shadow = useRef<ReturnType<typeof attachShadow> | null>(null)
  const onBlur = useRef(props.onBlur)
  // Maximised, the editor has room for line numbers and a larger font.
  const options = useMemo(
    () => ({
      ...OPTIONS,
      ariaLabel: label,
      ...(fill ? { lineNumbers: 'on' as const, fontSize: 13 } : {}),
    }),
    [label, fill],
  )
  const contextType = codeContextType(code)
  const contextRef = useRef(contextType)
  useEffect(() => {
    onBlur.current = props.onBlur
    contextRef.current = contextType
  })

  useEffect(() => {
    if (typings !== undefined) setGraphTypings(typings)
  }, [typings])
  useEffect(() => shadow.current?.setContextType(contextType), [contextType])
  useEffect(() => () => shadow.current?.dispose(), [])
  // Keyed by content: callers build a fresh array on every render.
  const markerKey = JSON.stringify(markers ?? [])
  useEffect(() => {
    if (!model) return
    const list = JSON.parse(markerKey) as NonNullable<CodeEditorProps['markers']>
    monaco.editor.setModelMarkers(
      model,
      'superstep',
      list.map((m) => ({
        message: m.message,
        severity:
          m.severity === 'error' ? monaco.MarkerSeverity.Error : monaco.MarkerSeverity.Warning,
        startLineNumber: m.line,
        startColumn: m.column,
        endLineNumber: m.line,
        endColumn: m.column + 1,
      })),
    )
  }, [model, markerKey])

  // The editor's text is its own; the `value` prop only brings changes from elsewhere (undo,
  // another editor). A controlled Monaco writes every render's value back into the model, so
  // on a busy machine the echo of an earlier keystroke, rendered late, would erase the ones
  // typed since. The texts this editor reported and not yet seen come back are kept; a value
  // among them is such an echo and is not written back.
  const reported = useRef<string[]>([])
  const applying = useRef(false)
  useEffect(() => {
    const m = editor?.getModel()
    if (!editor || !m) return
    if (value === m.getValue()) {
      reported.current = []
      return
    }
    const echo = reported.current.indexOf(value)
    if (echo >= 0) {
      reported.current = reported.current.slice(echo + 1)
      return
    }
    reported.current = []
    applying.current = true
    editor.executeEdits('superstep', [{ range: m.getFullModelRange(), text: value }])
    editor.pushUndoStop()
    applying.current = false
  }, [editor, value])

  return (
    // `nokey`: React Flow leaves the keys typed here alone (Monaco types through an
    // EditContext, not a textarea, so it would take Space for panning and Backspace for
    // deleting the selection).
    <div
      className="code-editor code-monaco nokey"
      style={fill ? { flex: 1, minHeight: 0 } : { height: height ?? 160 }}
    >
      <Editor
        height={`calc(100% - ${TAB_HINT_HEIGHT}px)`}
        path={path}
        defaultValue={value}
        defaultLanguage="javascript"
        theme={theme}
        options={options}
        loading={<PlainCodeEditor {...props} />}
        onChange={(text) => {
          if (applying.current) return
          // A parent that never answers would leave them here: keep the recent ones only.
          reported.current = [...reported.current.slice(-99), text ?? '']
          onChange(text ?? '')
        }}
        onMount={(editor) => {
          const m = editor.getModel()
          if (!m) return
          shadow.current?.dispose()
          shadow.current = attachShadow(monaco, m, contextRef.current)
          editor.onDidBlurEditorText(() => onBlur.current?.())
          trackTabFocusKey(monaco, editor)
          setModel(m)
          setEditor(editor)
        }}
      />
      <TabHint />
    </div>
  )
}
