import type { GraphSpec } from '../core/graph/schema'
import { emitPython } from './python'
import { jsLineComment, jsString, markdownLine, tomlString } from './text'
import { emitTypeScript } from './typescript'

/** One file of an exported project: a path inside the project and its text. */
export interface ProjectFile {
  path: string
  text: string
}

/** The versions the exported projects ask for (the ones Superstep is tested against). */
export const LANGGRAPH_JS_VERSION = '1.7.3'
export const LANGCHAIN_CORE_VERSION = '1.4.0'
export const LANGGRAPH_PY_REQUIREMENT = 'langgraph>=1.0,<2'
export const LANGCHAIN_OPENAI_VERSION = '1.6.0'
export const LANGCHAIN_OPENAI_PY_REQUIREMENT = 'langchain-openai>=1.0,<2'

/** The graph has a model node on OpenAI (the export then needs LangChain's OpenAI package). */
export function usesOpenAI(graph: GraphSpec): boolean {
  return graph.nodes.some((n) => n.kind === 'model' && n.model?.provider === 'openai')
}

/** A name fit for a package, a file and a `langgraph.json` graph id: `my-graph`. */
export function projectSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return slug || 'graph'
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

/**
 * The files of a project LangGraph's CLI and platform run: at the root the LangGraph.js
 * project (it behaves exactly like the in-browser run), in `python/` the LangGraph Python
 * one, and the graph file (`graphText`: the document as saved, which may carry more than
 * the spec), so the project opens in Superstep again. Pure: the same document always gives
 * the same files.
 */
export function emitProject(graph: GraphSpec, graphText: string = json(graph)): ProjectFile[] {
  const slug = projectSlug(graph.name)
  const graphFile = `${slug}.superstep.json`
  return [
    { path: 'README.md', text: readme(graph, slug, graphFile) },
    { path: 'package.json', text: packageJson(slug, usesOpenAI(graph)) },
    { path: 'tsconfig.json', text: tsconfig() },
    { path: 'langgraph.json', text: json(jsLanggraphJson(slug)) },
    { path: 'src/graph.ts', text: emitTypeScript(graph) },
    { path: 'src/run.ts', text: runScript(graph) },
    { path: '.gitignore', text: 'node_modules/\n.langgraph_api/\n.env\n__pycache__/\n' },
    { path: graphFile, text: graphText },
    { path: 'python/graph.py', text: emitPython(graph) },
    { path: 'python/requirements.txt', text: `${pyRequirements(graph).join('\n')}\n` },
    { path: 'python/pyproject.toml', text: pyproject(slug, pyRequirements(graph)) },
    { path: 'python/langgraph.json', text: json(pyLanggraphJson(slug)) },
  ]
}

/** `langgraph.json` of the LangGraph.js project (LangGraph CLI's config file). */
export function jsLanggraphJson(slug: string) {
  return { node_version: '20', dependencies: ['.'], graphs: { [slug]: './src/graph.ts:graph' } }
}

/** `langgraph.json` of the Python project. */
export function pyLanggraphJson(slug: string) {
  return { python_version: '3.11', dependencies: ['.'], graphs: { [slug]: './graph.py:graph' } }
}

function pyRequirements(graph: GraphSpec): string[] {
  return [LANGGRAPH_PY_REQUIREMENT, ...(usesOpenAI(graph) ? [LANGCHAIN_OPENAI_PY_REQUIREMENT] : [])]
}

function packageJson(slug: string, openai: boolean): string {
  return json({
    name: slug,
    version: '0.1.0',
    private: true,
    type: 'module',
    description: 'A LangGraph.js graph exported from Superstep.',
    scripts: {
      start: 'tsx src/run.ts',
      typecheck: 'tsc --noEmit',
      dev: 'langgraphjs dev',
    },
    dependencies: {
      '@langchain/core': LANGCHAIN_CORE_VERSION,
      '@langchain/langgraph': LANGGRAPH_JS_VERSION,
      ...(openai ? { '@langchain/openai': LANGCHAIN_OPENAI_VERSION } : {}),
    },
    devDependencies: {
      '@langchain/langgraph-cli': '^1.0.0',
      tsx: '^4.20.0',
      typescript: '^5.8.0',
    },
  })
}

function tsconfig(): string {
  return json({
    compilerOptions: {
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'bundler',
      strict: true,
      // Node code is the graph's own JavaScript: its inner callbacks have untyped parameters.
      noImplicitAny: false,
      skipLibCheck: true,
      noEmit: true,
    },
    include: ['src'],
  })
}

function pyproject(slug: string, requirements: string[]): string {
  return [
    '[project]',
    `name = ${tomlString(slug)}`,
    'version = "0.1.0"',
    'description = "A LangGraph graph exported from Superstep."',
    'requires-python = ">=3.11"',
    `dependencies = [${requirements.map(tomlString).join(', ')}]`,
    '',
    '[project.optional-dependencies]',
    'dev = ["langgraph-cli[inmem]>=0.4"]',
    '',
  ].join('\n')
}

/** A script that runs the graph once from its default state and prints every checkpoint. */
function runScript(graph: GraphSpec): string {
  return `/** Runs the exported graph once on a fresh thread and prints its checkpoints, oldest first. */
import { graph } from './graph.js'

const config = { configurable: { thread_id: 'local-1' } }
const input = JSON.parse(process.argv[2] ?? '{}')
const result = await graph.invoke(input, config)
const history = []
for await (const snapshot of graph.getStateHistory(config)) history.unshift(snapshot)
for (const s of history) {
  console.log(\`step \${s.metadata?.step} (\${s.metadata?.source}) next: [\${s.next.join(', ')}]\`)
}
console.log(JSON.stringify(result, null, 2))
${jsLineComment(`${jsString(graph.name)} exported from Superstep.`)}
`
}

function readme(graph: GraphSpec, slug: string, graphFile: string): string {
  const title = markdownLine(graph.name)
  return `# ${title}

A LangGraph graph exported from Superstep, with its code in two languages.

- \`src/graph.ts\`: LangGraph.js. It behaves exactly like the run in Superstep: Superstep's
  tests run every graph of its differential suite through this emitter on
  \`@langchain/langgraph\` ${LANGGRAPH_JS_VERSION} and compare every checkpoint.
- \`python/graph.py\`: LangGraph Python. Node code drawn in Superstep is JavaScript; what
  can be translated faithfully is, the rest raises \`NotImplementedError\` with the original
  code beside it (see the list at the top of the file).
- \`${graphFile}\`: the graph itself; open it in Superstep (Import) to keep drawing.

## Run it locally (LangGraph.js)

\`\`\`sh
npm install
npm start                 # runs the graph once: npm start -- '{"some": "input"}'
npx @langchain/langgraph-cli dev   # LangGraph's local server and Studio, from langgraph.json
\`\`\`

## Run it locally (Python)

\`\`\`sh
cd python
python -m venv .venv && . .venv/bin/activate
pip install -r requirements.txt "langgraph-cli[inmem]"
langgraph dev             # the same server, from python/langgraph.json
\`\`\`

## Deploy

Both folders are LangGraph projects: \`langgraph.json\` names the graph \`${slug}\`
(\`./src/graph.ts:graph\`, or \`./graph.py:graph\` in \`python/\`). Push the project to a
repository and create a deployment from it on LangGraph Platform, or build an image with
\`npx @langchain/langgraph-cli build -t ${slug}\` (\`langgraph build -t ${slug}\` in \`python/\`)
and run it where you like. The graph is compiled with an in-memory checkpointer for local
runs; LangGraph's server supplies its own persistence.
`
}
