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
  // core is pure: only lib, zod, acorn and microdiff; no DOM, timers, storage or workers.
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts', 'src/core/checkpoint/saverContract.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\.|zod$|acorn$|microdiff$)',
              message: 'core imports only lib, zod, acorn and microdiff.',
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
  layer(['src/lib/**/*.ts'], [{ regex: '.', message: 'lib has no imports of its own.' }]),
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
