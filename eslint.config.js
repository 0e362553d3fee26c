import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

/** Folders and what they may import (STYLE.md: arrows point one way). */
const oracleOnly = {
  regex: '^@langchain/',
  message: '@langchain/* is a test oracle only, never in the app.',
}
const layer = (files, patterns) => ({
  files,
  ignores: ['src/**/*.test.ts'],
  rules: { 'no-restricted-imports': ['error', { patterns: [...patterns, oracleOnly] }] },
})

/** The packages the pure core may use, through src/lib only. */
const LIB_PACKAGES = ['zod', 'acorn', 'microdiff', '@cfworker/json-schema']

/** A relative import reaching into one of `dirs` of src/. */
const into = (...dirs) => `^\\.{1,2}/(\\.\\./)*(${dirs.join('|')})(/|$)`

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
  // The reference implementation is for tests and benchmarks, never the app bundle.
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/differential/**', 'src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [oracleOnly] }],
    },
  },
  // core is pure: it imports nothing but lib (no packages, no DOM, timers, storage or workers).
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts', 'src/core/checkpoint/saverContract.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\.)',
              message: 'core imports nothing but lib: a package comes in through src/lib.',
            },
            {
              regex: into('ui', 'store', 'worker', 'persistence', 'codegen', 'cli', 'differential'),
              message: 'core imports nothing but lib.',
            },
            oracleOnly,
          ],
        },
      ],
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
  // lib: small pure helpers, and the only door for the core's packages, each pure.
  layer(
    ['src/lib/**/*.ts'],
    [
      {
        regex: `^(?!\\./|(${LIB_PACKAGES.join('|')})$)`,
        message: `lib imports only pure packages (${LIB_PACKAGES.join(', ')}) and nothing of the app.`,
      },
    ],
  ),
  layer(
    ['src/codegen/**/*.ts'],
    [{ regex: into('ui', 'store', 'worker', 'persistence', 'cli'), message: 'codegen is pure.' }],
  ),
  layer(
    ['src/persistence/**/*.ts'],
    [{ regex: into('ui', 'store', 'worker', 'cli'), message: 'persistence -> core only.' }],
  ),
  layer(
    ['src/worker/**/*.ts'],
    [{ regex: into('ui', 'store', 'cli'), message: 'worker -> core, persistence.' }],
  ),
  layer(
    ['src/store/**/*.ts'],
    [
      {
        regex: into('ui', 'persistence', 'cli'),
        message: 'store talks to the worker client only.',
      },
    ],
  ),
)
