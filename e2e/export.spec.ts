import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { strFromU8, unzipSync } from 'fflate'
import { expect, test, type Page } from '@playwright/test'

/** The Export dialog in real Chromium: the same code as the CLI, copy, download, the zip. */

/** What the command line prints; each call starts Node and tsx (seconds on a busy machine). */
async function cli(...args: string[]): Promise<string> {
  const run = promisify(execFile)
  return (await run('npx', ['tsx', 'src/cli/main.ts', ...args], { encoding: 'utf8' })).stdout
}

async function downloaded(page: Page, button: string): Promise<Buffer> {
  const download = page.waitForEvent('download')
  await page.getByRole('dialog', { name: 'Export' }).getByRole('button', { name: button }).click()
  return readFile(await (await download).path())
}

test('Export shows LangGraph.js, Python and the file; copies, downloads, and zips the project', async ({
  page,
  context,
}) => {
  // Two command-line runs, started before the page and awaited where they are compared.
  test.slow()
  const file = 'examples/counter.json'
  const expected = Promise.all([
    cli('export', '--lang', 'ts', file),
    cli('export', '--lang', 'py', file),
  ])
  expected.catch(() => undefined) // awaited below; a failure there fails the test
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'counter' })).toBeAttached()
  await page.keyboard.press('Control+e')
  const dialog = page.getByRole('dialog', { name: 'Export' })
  await expect(dialog).toBeVisible()
  for (const title of ['LangGraph.js (TypeScript)', 'LangGraph (Python)', 'Graph file'])
    await expect(dialog.getByRole('region', { name: title })).toBeVisible()
  // Read-only Monaco arrives lazily with the code in it.
  const ts = dialog.getByRole('region', { name: 'LangGraph.js (TypeScript)' })
  await expect(ts.locator('.monaco-editor .view-lines')).toContainText('StateGraph', {
    timeout: 15_000,
  })

  // The same bytes as the command line.
  const [tsCode, pyCode] = await expected
  expect((await downloaded(page, 'Download TypeScript')).toString()).toBe(tsCode)
  expect((await downloaded(page, 'Download Python')).toString()).toBe(pyCode)
  await dialog.getByRole('button', { name: 'Copy Python' }).click()
  await expect(dialog).toContainText('Copied the Python.')
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(pyCode)

  // The project: the CLI's files, under one folder, with the graph file as saved.
  const graphFile = (await downloaded(page, 'Download graph file')).toString()
  const zip = unzipSync(new Uint8Array(await downloaded(page, 'Download project (.zip)')))
  const names = Object.keys(zip).sort()
  expect(names).toEqual(
    [
      '.dockerignore',
      '.env',
      '.env.example',
      '.gitignore',
      'README.md',
      'counter.superstep.json',
      'langgraph.json',
      'package.json',
      'python/.dockerignore',
      'python/.env',
      'python/.env.example',
      'python/graph.py',
      'python/langgraph.json',
      'python/pyproject.toml',
      'python/requirements.txt',
      'src/graph.ts',
      'src/run.ts',
      'tsconfig.json',
    ].map((n) => `counter/${n}`),
  )
  const text = (n: string) => strFromU8(zip[`counter/${n}`] as Uint8Array)
  expect(text('counter.superstep.json')).toBe(graphFile)
  expect(text('src/graph.ts')).toBe(tsCode)
  expect(JSON.parse(text('langgraph.json'))).toMatchObject({
    graphs: { counter: './src/graph.ts:graph' },
  })
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})
