import type { GraphSpec, NodeSpec } from '../core/graph/schema'
import { subgraphLevels } from './subgraphLevels'
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

/** The graph (or one of its subgraphs) has a model node on OpenAI (the export then needs LangChain's OpenAI package). */
export function usesOpenAI(graph: GraphSpec): boolean {
  return openAINodes(graph).length > 0
}

/** Every model node on OpenAI at every level, named `id` at the root and `subgraph / id` inside one. */
function openAINodes(graph: GraphSpec): { label: string; node: NodeSpec }[] {
  const levels = [
    { label: '', graph },
    ...subgraphLevels(graph).map((l) => ({ label: `${l.name} / `, graph: l.spec })),
  ]
  return levels.flatMap(({ label, graph: g }) =>
    g.nodes
      .filter((n) => n.kind === 'model' && n.model?.provider === 'openai')
      .map((node) => ({ label: `${label}${node.id}`, node })),
  )
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
  const keys = modelKeys(graph)
  const env = { example: envExample(keys), file: envFile(keys) }
  const requirements = pyRequirements(graph)
  return [
    { path: 'README.md', text: readme(graph, slug, graphFile) },
    { path: 'package.json', text: packageJson(slug, usesOpenAI(graph)) },
    { path: 'tsconfig.json', text: tsconfig() },
    { path: 'langgraph.json', text: json(jsLanggraphJson(slug)) },
    { path: 'src/graph.ts', text: emitTypeScript(graph) },
    { path: 'src/run.ts', text: runScript(graph) },
    { path: '.gitignore', text: 'node_modules/\n.langgraph_api/\n.env\n__pycache__/\n.venv/\n' },
    { path: '.dockerignore', text: dockerignore(['node_modules/', 'python/']) },
    { path: '.env.example', text: env.example },
    { path: '.env', text: env.file },
    { path: graphFile, text: graphText },
    { path: 'python/graph.py', text: emitPython(graph) },
    { path: 'python/requirements.txt', text: `${requirements.join('\n')}\n` },
    { path: 'python/pyproject.toml', text: pyproject(slug, requirements) },
    { path: 'python/langgraph.json', text: json(pyLanggraphJson(slug)) },
    { path: 'python/.dockerignore', text: dockerignore(['.venv/']) },
    { path: 'python/.env.example', text: env.example },
    { path: 'python/.env', text: env.file },
  ]
}

/**
 * The environment variables the graph's model nodes read: `ChatOpenAI`, in both languages,
 * reads `OPENAI_API_KEY` whatever the node's endpoint. Scripted models need nothing.
 */
function modelKeys(graph: GraphSpec): string[] {
  return usesOpenAI(graph) ? ['OPENAI_API_KEY'] : []
}

/**
 * `.env.example`: the keys, to be filled in `.env`. Fixed text (nothing from the document),
 * so no name in the graph can add a line to an env file.
 */
function envExample(keys: string[]): string {
  if (keys.length === 0)
    return '# This graph needs no keys: none of its nodes calls a model endpoint.\n'
  return [
    `# The keys this graph's model nodes read (ChatOpenAI reads OPENAI_API_KEY). Fill them in`,
    '# in .env, which LangGraph\'s server loads ("env" in langgraph.json); never commit .env.',
    ...keys.map((k) => `${k}=`),
    '',
  ].join('\n')
}

/**
 * `.env`, shipped because `langgraph.json` names it (`langgraph up` refuses a missing env
 * file). The keys are commented out: an empty `OPENAI_API_KEY=` would hide one exported in
 * the shell from a server that loads this file over the environment.
 */
function envFile(keys: string[]): string {
  return [
    '# Loaded by LangGraph\'s server ("env" in langgraph.json); .gitignore and .dockerignore',
    '# keep it out of git and of images.',
    ...(keys.length === 0
      ? ['# This graph needs no keys.']
      : ['# Uncomment each key and fill it in:', ...keys.map((k) => `# ${k}=`)]),
    '',
  ].join('\n')
}

/** `.dockerignore`: what must not reach an image LangGraph's CLI builds from the folder. */
function dockerignore(extra: string[]): string {
  return [
    "# Not part of the image LangGraph's CLI builds from this folder: keys stay out of it.",
    '.env',
    '.git/',
    '.langgraph_api/',
    '__pycache__/',
    ...extra,
    '',
  ].join('\n')
}

/** `langgraph.json` of the LangGraph.js project (LangGraph CLI's config file). */
export function jsLanggraphJson(slug: string) {
  return {
    node_version: '20',
    dependencies: ['.'],
    graphs: { [slug]: './src/graph.ts:graph' },
    env: '.env',
  }
}

/** `langgraph.json` of the Python project. */
export function pyLanggraphJson(slug: string) {
  return {
    python_version: '3.11',
    dependencies: ['.'],
    graphs: { [slug]: './graph.py:graph' },
    env: '.env',
  }
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
      '@types/node': '^20.19.0',
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
      // `src/run.ts` reads `process.argv`; named, so TypeScript 6 (no default types) agrees.
      types: ['node'],
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

/**
 * The run script's import and config: a graph that declares settings runs with their
 * defaults, the script's second argument (JSON) over them.
 */
function settingsImport(graph: GraphSpec): string {
  if ((graph.config ?? []).length === 0)
    return `import { graph } from './graph.js'

const config = { configurable: { thread_id: 'local-1' } }`
  return `import { configurable, graph } from './graph.js'

// The declared defaults of the graph's settings, and your own over them (a second argument).
const own = JSON.parse(process.argv[3] ?? '{}')
const config = { configurable: { ...configurable, ...own, thread_id: 'local-1' } }`
}

/** A script that runs the graph once from its default state and prints every checkpoint. */
function runScript(graph: GraphSpec): string {
  return `/** Runs the exported graph once on a fresh thread and prints its checkpoints, oldest first. */
import type { StateSnapshot } from '@langchain/langgraph'
${settingsImport(graph)}
const input = JSON.parse(process.argv[2] ?? '{}')
const result = await graph.invoke(input, config)
const history: StateSnapshot[] = []
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

${keysSection(graph)}${settingsSection(graph)}
## Run it locally (LangGraph.js)

\`\`\`sh
npm install
npm start                 # runs the graph once: npm start -- '{"some": "input"}'
npm run typecheck
npx @langchain/langgraph-cli dev   # LangGraph's local server and Studio, from langgraph.json
\`\`\`

## Run it locally (Python)

\`\`\`sh
cd python
python -m venv .venv && . .venv/bin/activate
pip install -r requirements.txt "langgraph-cli[inmem]"
python graph.py           # runs the graph once: python graph.py '{"some": "input"}'
langgraph dev             # the same server, from python/langgraph.json
\`\`\`

## Deploy

Both folders are LangGraph projects: \`langgraph.json\` names the graph \`${slug}\`
(\`./src/graph.ts:graph\`, or \`./graph.py:graph\` in \`python/\`). Push the project to a
repository and create a deployment from it on LangGraph Platform, or build an image with
\`npx @langchain/langgraph-cli build -t ${slug}\` (\`langgraph build -t ${slug}\` in \`python/\`)
and run it where you like; \`.dockerignore\` keeps \`.env\` and \`node_modules\` out of it.
LangGraph's server keeps the checkpoints itself. The LangGraph.js \`graph\` is compiled with
an in-memory checkpointer, which the server replaces; the Python \`graph\` has none, as
LangGraph's Python server requires, and \`local_graph()\` compiles it with one for runs
outside the server (\`python graph.py\`).

There is no lockfile: \`npm install\` (or \`pip install\`) picks the newest versions the
version ranges allow, and an image built without one runs \`npm i\`. Commit the
\`package-lock.json\` your first \`npm install\` writes to pin them.
`
}

/** The README's section on the graph's declared run settings (none when it declares none). */
function settingsSection(graph: GraphSpec): string {
  const settings = graph.config ?? []
  if (settings.length === 0) return ''
  const rows = settings.map(
    (c) =>
      `- \`${markdownLine(c.name)}\` (${c.type}${c.default === undefined ? '' : `, default \`${markdownLine(JSON.stringify(c.default))}\``})${c.description ? `: ${markdownLine(c.description)}` : ''}`,
  )
  return `
## Run settings

The graph's code reads these from \`config.configurable\`:

${rows.join('\n')}

LangGraph fills no defaults: \`src/graph.ts\` exports them as \`configurable\` and
\`python/graph.py\` as \`CONFIGURABLE\`; pass them with each run, your own over them. \`npm start\`
and \`python graph.py\` do, and take your own settings as a second argument (JSON):
\`npm start -- '{}' '{"${settings[0]?.name.replace(/[^\w-]/g, '') ?? 'x'}": …}'\`.
`
}

/** The README's section on keys: which variable the model nodes read, and where it goes. */
function keysSection(graph: GraphSpec): string {
  const models = openAINodes(graph).flatMap(({ label, node: n }) =>
    n.model?.provider === 'openai'
      ? [
          `- ${markdownLine(label)}: ${markdownLine(n.model.model)} at ${markdownLine(n.model.baseUrl)}`,
        ]
      : [],
  )
  if (models.length === 0)
    return `## Keys

None: no node of this graph calls a model endpoint. \`.env\` (which \`langgraph.json\` names)
is there for keys you may add later; \`.env.example\` says the same.
`
  return `## Keys

The model nodes call an OpenAI-compatible endpoint through \`ChatOpenAI\`, which reads the key
from \`OPENAI_API_KEY\` (nothing in the graph or in this project holds one):

${models.join('\n')}

For LangGraph's server, uncomment \`OPENAI_API_KEY=\` in \`.env\` (\`python/.env\` for the
Python server) and fill it in: \`langgraph.json\` loads that file (\`"env": ".env"\`);
\`.env.example\` lists the keys. \`npm start\` and \`python graph.py\` read the shell's
environment: \`export OPENAI_API_KEY=…\` first. Every model node reads this one variable;
Superstep keeps a key per endpoint, so nodes on endpoints with different keys need
\`apiKey\` (\`api_key\` in Python) passed to their \`ChatOpenAI\` in the code.
`
}
