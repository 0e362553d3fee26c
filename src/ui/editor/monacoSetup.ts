/**
 * Monaco, offline and configured once. This module is only reached through the lazy
 * `MonacoCodeEditor` chunk, so neither Monaco nor its workers are in the initial JS.
 */
import { loader } from '@monaco-editor/react'
import * as monaco from 'monaco-editor'
import EditorWorker from 'monaco-editor/editor/editor.worker?worker'
import TsWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker'
import JsonWorker from 'monaco-editor/languages/features/json/json.worker?worker'
import { registerTypeScriptHover } from './hoverMarkdown'
import { registerShadowProviders } from './shadowTyping'

// Vite 8 would otherwise inline the editor worker as a data: URL that fails to load.
self.MonacoEnvironment = {
  // JSON (the Export dialog's graph file) needs its own worker: the editor worker answers
  // its requests with "Missing requestHandler or method: doValidation".
  getWorker: (_id: string, label: string) =>
    label === 'typescript' || label === 'javascript'
      ? new TsWorker()
      : label === 'json'
        ? new JsonWorker()
        : new EditorWorker(),
}

const js = monaco.typescript.javascriptDefaults
js.setCompilerOptions({
  allowJs: true,
  checkJs: false,
  allowNonTsExtensions: true,
  target: monaco.typescript.ScriptTarget.ESNext,
  // Node code runs in a worker sandbox: no DOM globals to suggest.
  lib: ['es2023'],
  noEmit: true,
})
// Diagnostics, completion and hover come from the typed shadow models (shadowTyping.ts);
// the built-in ones would see bare expressions: `state` untyped, `function () {}` an error.
js.setDiagnosticsOptions({
  noSemanticValidation: true,
  noSyntaxValidation: true,
  noSuggestionDiagnostics: true,
})
js.setModeConfiguration({
  ...js.modeConfiguration,
  completionItems: false,
  hovers: false,
  diagnostics: false,
  codeActions: false,
  inlayHints: false,
})
registerShadowProviders(monaco)
// The Export dialog's TypeScript: Monaco's own hover would show images from node JSDoc.
registerTypeScriptHover(monaco)

// No CDN: @monaco-editor/react uses this local instance.
loader.config({ monaco })

const TYPINGS_PATH = 'file:///superstep/graph.d.ts'
let typingsShown = ''

/** Makes `typings` (see `typingsFor`) the declarations every code editor sees. */
export function setGraphTypings(typings: string): void {
  if (typings === typingsShown) return
  typingsShown = typings
  js.addExtraLib(typings, TYPINGS_PATH)
}

export { monaco }
