import { Editor } from '@monaco-editor/react'
import type * as Monaco from 'monaco-editor'
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import type { CodeEditorProps } from './CodeEditor'
import { PlainCodeEditor } from './CodeEditor'
import { monaco, setGraphTypings } from './monacoSetup'
import { attachShadow } from './shadowTyping'
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
}

const darkScheme = () => window.matchMedia('(prefers-color-scheme: dark)')
const onSchemeChange = (notify: () => void) => {
  const query = darkScheme()
  query.addEventListener('change', notify)
  return () => query.removeEventListener('change', notify)
}

/** The Monaco side of `CodeEditor` (default export for `React.lazy`). */
export default function MonacoCodeEditor(props: CodeEditorProps) {
  const { value, onChange, label, code, typings, markers, height } = props
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
  const options = useMemo(() => ({ ...OPTIONS, ariaLabel: label }), [label])
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

  return (
    <div className="code-editor code-monaco" style={{ height: height ?? 160 }}>
      <Editor
        path={path}
        value={value}
        defaultLanguage="javascript"
        theme={theme}
        options={options}
        loading={<PlainCodeEditor {...props} />}
        onChange={(text) => onChange(text ?? '')}
        onMount={(editor) => {
          const m = editor.getModel()
          if (!m) return
          shadow.current?.dispose()
          shadow.current = attachShadow(monaco, m, contextRef.current)
          editor.onDidBlurEditorText(() => onBlur.current?.())
          setModel(m)
          setEditor(editor)
        }}
      />
    </div>
  )
}
