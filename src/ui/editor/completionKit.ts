import ts from 'typescript'
import { symbolEntries, wrapCode } from './shadow'

/**
 * Test kit: TypeScript's language service over in-memory files, set up as the editor's
 * JavaScript worker is (allowJs, no checking, ES2023 lib), to ask what Monaco would complete.
 */
export function languageService(files: Record<string, string>): ts.LanguageService {
  const options: ts.CompilerOptions = {
    allowJs: true,
    checkJs: false,
    target: ts.ScriptTarget.ESNext,
    lib: ['lib.es2023.d.ts'],
    noEmit: true,
  }
  const read = (f: string) => files[f] ?? ts.sys.readFile(f)
  return ts.createLanguageService({
    getScriptFileNames: () => Object.keys(files),
    getScriptVersion: () => '1',
    getScriptSnapshot: (f) => {
      const text = read(f)
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text)
    },
    getCurrentDirectory: () => '/',
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => f in files || ts.sys.fileExists(f),
    readFile: read,
  })
}

/**
 * The completion names at offset `at` of `code`, wrapped in `contextType` as the editor's
 * shadow model does; `files` are further files the code sees (a graph's declarations).
 */
export function completionsAt(
  contextType: string,
  code: string,
  at: number,
  files: Record<string, string> = {},
): string[] {
  const wrapped = wrapCode(code, contextType)
  const service = languageService({ ...files, '/code.js': wrapped.text })
  const info = service.getCompletionsAtPosition('/code.js', wrapped.prefixLength + at, {})
  return symbolEntries(info?.entries ?? []).map((e) => e.name)
}
