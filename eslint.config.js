import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

/**
 * What each part of src/ may import, as an allow-list (STYLE.md: arrows point one way):
 * `folders` are src/ folders or top-level modules (`worker/protocol` names one module);
 * `typesOnly` may be imported with `import type` only; `packages` are npm packages or Node
 * built-ins (a name also allows its subpaths); `outside` are folders beside src/. Anything
 * else is an error. Tests and test kits are exempt (see TEST_FILES).
 */
const ALLOWED = {
  // Tiny helpers, and the only door for the core's packages, each pure.
  lib: { packages: ['zod', 'acorn', 'microdiff', '@cfworker/json-schema'] },
  // Pure: nothing but lib (no packages, no DOM, timers, storage or workers; see below).
  core: { folders: ['lib'] },
  codegen: { folders: ['core', 'lib'], packages: ['acorn', 'fflate'] },
  persistence: { folders: ['core', 'lib'], packages: ['dexie', 'zod'] },
  // virtual:sandbox-loop: the worker's own core, bundled for its sandboxes (vite.config.ts).
  worker: {
    folders: ['core', 'lib', 'persistence'],
    packages: ['zod', 'eventsource-parser', 'virtual:sandbox-loop'],
  },
  // The store talks to the worker through the client it is given: types only.
  store: {
    folders: ['core', 'codegen', 'lib'],
    typesOnly: ['worker/client', 'worker/protocol'],
    packages: ['zod', 'zundo', 'zustand'],
  },
  ui: {
    folders: ['store', 'core', 'lib'],
    typesOnly: ['worker/protocol'],
    packages: [
      'react',
      'react-dom',
      '@xyflow/react',
      '@monaco-editor/react',
      'monaco-editor',
      '@dagrejs/dagre',
      'elkjs',
      '@tanstack/react-virtual',
      'react-json-view-lite',
      'zustand',
    ],
  },
  cli: {
    folders: ['codegen', 'core', 'lib'],
    packages: ['zod', 'node:fs', 'node:path', 'node:util'],
  },
  // The test oracle: LangGraph.js itself, never in the app bundle.
  differential: {
    folders: ['core', 'lib'],
    packages: [
      '@langchain/core',
      '@langchain/langgraph',
      'node:crypto',
      'node:fs',
      'node:path',
      'node:url',
    ],
  },
  // The composition root.
  main: {
    folders: ['lib', 'persistence', 'store', 'templates', 'ui', 'worker'],
    packages: ['react', 'react-dom'],
    outside: ['examples'],
  },
  // The bundled templates: handed to the store by the composition root.
  templates: { typesOnly: ['store/appTypes'], outside: ['examples'] },
  csp: {},
}

/**
 * Listed exceptions, reported as warnings until the importing file is fixed. Each names the
 * file, the import and the fix.
 */
const EXCEPTIONS = []

/** Tests, and kits only tests use, may import what they test with. */
const TEST_FILES = [
  'src/**/*.test.ts',
  'src/**/*.test.tsx',
  'src/core/checkpoint/saverContract.ts',
  'src/worker/serviceHarness.ts',
  'src/persistence/saverTestKit.ts',
  'src/ui/editor/completionKit.ts',
]

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
const anyOf = (names) => `(${names.map(escape).join('|')})`
const list = (names) => (names?.length ? names.join(', ') : 'nothing')

/** The source files of one part: a folder's (at each depth below it) or a top-level module's. */
function partFiles(part) {
  const folder = `src/${part}`
  return [
    ...[1, 2, 3, 4].map((depth) => ({
      depth,
      files: [`${folder}/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    })),
    { depth: 0, files: [`${folder}.ts`, `${folder}.tsx`] },
  ]
}

/** The allow-list of one part as `@typescript-eslint/no-restricted-imports` patterns. */
function allowListPatterns(part, depth, allowed, exempt = []) {
  const { folders = [], typesOnly = [], packages = [], outside = [] } = allowed
  const said = `${part} may import ${list(folders)}${typesOnly.length ? ` and the types of ${list(typesOnly)}` : ''}; packages: ${list(packages)}.`
  const notOneOf = (names) => (names.length ? `(?!${anyOf(names)}(/|$))` : '')
  const pattern = (regex, message, extra = {}) => ({
    regex,
    message,
    caseSensitive: true,
    ...extra,
  })
  // A relative import that reaches src/ names its target right after `up`.
  const up = depth === 0 ? '\\./' : `(\\.\\./){${depth}}`
  // A types-only module is left to its own pattern below, so a value import is told once.
  const inSrc = [...folders, ...typesOnly, ...exempt]
  const beside = outside.map((o) => `../${o}`)
  const patterns = [
    pattern(`^(?!\\.)${notOneOf(packages)}`, `Package not on the allow-list: ${said}`),
    ...(depth === 0
      ? [
          pattern(`^${up}${notOneOf(inSrc)}`, `Not on the allow-list: ${said}`),
          pattern(`^${notOneOf(beside)}\\.\\./`, `Not on the allow-list: ${said}`),
        ]
      : [pattern(`^${up}${notOneOf([...inSrc, ...beside])}`, `Not on the allow-list: ${said}`)]),
  ]
  for (const t of typesOnly.filter((t) => !exempt.includes(t))) {
    patterns.push(pattern(`^${up}${escape(t)}$`, `Types only: ${said}`, { allowTypeImports: true }))
  }
  return patterns
}

/** Fail closed: a part of src/ (or a depth) with no allow-list may import nothing. */
const unlisted = {
  files: ['src/**/*.ts', 'src/**/*.tsx'],
  ignores: TEST_FILES,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '.',
            message: 'This file has no allow-list: add its folder to eslint.config.js.',
          },
        ],
      },
    ],
  },
}

const allowLists = Object.entries(ALLOWED).flatMap(([part, allowed]) =>
  partFiles(part).map(({ depth, files }) => ({
    files,
    ignores: TEST_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: allowListPatterns(part, depth, allowed) },
      ],
    },
  })),
)

/**
 * The exceptions: the allow-list lets the one import through, and the base rule warns about
 * it. (Two rules, so the rest of the file stays an error.)
 */
const exceptions = EXCEPTIONS.flatMap((x) =>
  x.files.map((file) => {
    const [, part, ...rest] = file.split('/')
    const depth = rest.length
    return {
      files: [file],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          { patterns: allowListPatterns(part, depth, ALLOWED[part], [x.import]) },
        ],
        'no-restricted-imports': [
          'warn',
          {
            patterns: [
              {
                regex: `^(\\.\\./){${depth}}${escape(x.import)}$`,
                message: `Listed exception: ${x.message}`,
              },
            ],
          },
        ],
      },
    }
  }),
)

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/**/*.tsx', 'src/ui/**/*.ts', 'src/store/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  unlisted,
  ...allowLists,
  ...exceptions,
  // `import()` is not checked by the allow-list, so a lazy import stays in its own folder.
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression:not([source.type="Literal"][source.value=/^\\.\\/[^.]/])',
          message: 'A dynamic import() loads a module of its own folder (`./x`) only.',
        },
      ],
    },
  },
  // core is pure: no DOM, timers, storage or workers; inject what it needs.
  {
    files: ['src/core/**/*.ts'],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'indexedDB',
          'localStorage',
          'setTimeout',
          'setInterval',
          'fetch',
          'Worker',
          'navigator',
        ].map((name) => ({
          name,
          message: 'core is pure: inject what it needs.',
        })),
      ],
    },
  },
)
