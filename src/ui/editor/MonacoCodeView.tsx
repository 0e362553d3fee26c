import { Editor } from '@monaco-editor/react'
import type * as Monaco from 'monaco-editor'
import { useMemo, useState, useSyncExternalStore } from 'react'
import type { CodeViewProps } from './CodeView'
import { monaco } from './monacoSetup'
import { TAB_HINT_HEIGHT, TabHint, trackTabFocusKey } from './TabHint'

// Exported modules import packages this page does not have: no diagnostics, only colours.
monaco.typescript.typescriptDefaults.setDiagnosticsOptions({
  noSemanticValidation: true,
  noSyntaxValidation: true,
  noSuggestionDiagnostics: true,
})

const OPTIONS: Monaco.editor.IStandaloneEditorConstructionOptions = {
  readOnly: true,
  domReadOnly: true,
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 12,
  lineNumbers: 'on',
  folding: true,
  automaticLayout: true,
  renderLineHighlight: 'none',
  scrollbar: { alwaysConsumeMouseWheel: false },
}

let views = 0
const dark = () => window.matchMedia('(prefers-color-scheme: dark)')
const onScheme = (f: () => void) => {
  const m = dark()
  m.addEventListener('change', f)
  return () => m.removeEventListener('change', f)
}
const EXT = { typescript: 'ts', python: 'py', json: 'json' } as const

/** The Monaco side of `CodeView` (default export for `React.lazy`). */
export default function MonacoCodeView({ value, language, label, height }: CodeViewProps) {
  const [path] = useState(() => `file:///superstep/export/view${++views}.${EXT[language]}`)
  const theme = useSyncExternalStore(onScheme, () => (dark().matches ? 'vs-dark' : 'light'))
  const options = useMemo(() => ({ ...OPTIONS, ariaLabel: label }), [label])
  return (
    <div className="code-view" style={{ height: height ?? 400 }}>
      <Editor
        height={`calc(100% - ${TAB_HINT_HEIGHT}px)`}
        path={path}
        value={value}
        language={language}
        theme={theme}
        options={options}
        onMount={(editor) => void trackTabFocusKey(monaco, editor)}
      />
      <TabHint />
    </div>
  )
}
