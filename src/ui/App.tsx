import { END, START } from '../core/graph/constants'
import { formatIssue } from '../core/graph/issues'
import { GraphSpecSchema, type BranchSpec, type GraphSpec } from '../core/graph/schema'
import { RunDrawer } from './panels/RunDrawer'
import { TopBar } from './panels/TopBar'
import { useApp } from './storeContext'
import { ImportProblems } from './panels/ImportProblems'

/** The screen of PRODUCT.md: graphs and problems, the document, the inspector, the run drawer. */
export function App() {
  const doc = useApp((s) => s.doc)
  const parsed = GraphSpecSchema.safeParse(doc)
  const graph = parsed.success ? parsed.data : null
  return (
    <div className="app">
      <TopBar />
      <LeftColumn />
      {graph ? <Canvas graph={graph} /> : <main className="canvas" aria-label="Canvas" />}
      {graph ? (
        <Inspector graph={graph} />
      ) : (
        <aside className="right panel" aria-label="Inspector" />
      )}
      <RunDrawer />
      <ImportProblems />
    </div>
  )
}

function LeftColumn() {
  const { issues, graphs, currentId, select } = useApp((s) => ({
    issues: s.issues,
    graphs: s.graphs,
    currentId: s.current?.id,
    select: s.select,
  }))
  const count = issues.length
  return (
    <nav className="left panel" aria-label="Graphs and problems">
      <h2>Graphs</h2>
      <ul className="plain-list">
        {graphs.map((g) => (
          <li
            key={g.id}
            aria-current={g.id === currentId ? 'page' : undefined}
            className={g.id === currentId ? 'current' : undefined}
          >
            <button type="button" className="link" onClick={() => void select(g.id)}>
              {g.name}
              {!g.trusted && (
                <span className="badge warn" title="Imported: its code has not run">
                  untrusted
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      <h2>Templates</h2>
      <p className="muted">Templates come later.</p>
      <h2 id="problems-heading">
        Problems <span className="badge">{count}</span>
      </h2>
      <div aria-labelledby="problems-heading" aria-live="polite">
        {count === 0 ? (
          <p className="muted">No problems.</p>
        ) : (
          <ul className="plain-list problems">
            {issues.map((issue, i) => (
              <li key={i} className={issue.severity}>
                <span className="severity">{issue.severity}</span> {issue.message}
                <code className="issue-detail">{formatIssue(issue)}</code>
              </li>
            ))}
          </ul>
        )}
      </div>
    </nav>
  )
}

function Canvas({ graph }: { graph: GraphSpec }) {
  return (
    <main className="canvas" aria-label="Canvas">
      <div className="canvas-inner">
        <h1>{graph.name}</h1>
        {graph.description && <p className="muted">{graph.description}</p>}
        <h2>Nodes</h2>
        <ol className="node-list">
          <li className="node terminal">
            <span className="node-id">{START}</span>
            <Targets targets={edgeTargets(graph, START)} />
          </li>
          {graph.nodes.map((node) => (
            <li className="node" key={node.id}>
              <span className="node-id">{node.id}</span>
              <code>{node.code}</code>
              <Targets targets={edgeTargets(graph, node.id)} />
              {graph.branches
                ?.filter((b) => b.from === node.id)
                .map((b, i) => (
                  <p className="branch" key={i}>
                    <span className="muted">router</span> <code>{b.router}</code>
                    <Targets targets={branchTargets(b)} />
                  </p>
                ))}
            </li>
          ))}
          <li className="node terminal">
            <span className="node-id">{END}</span>
          </li>
        </ol>
      </div>
    </main>
  )
}

function Targets({ targets }: { targets: readonly string[] }) {
  if (targets.length === 0) return null
  return <span className="targets">→ {targets.join(', ')}</span>
}

function edgeTargets(graph: GraphSpec, from: string): string[] {
  return graph.edges
    .filter((e) => (Array.isArray(e.from) ? e.from.includes(from) : e.from === from))
    .map((e) => e.to)
}

function branchTargets(branch: BranchSpec): string[] {
  const paths = branch.paths
  if (paths === undefined) return ['(any node)']
  if (Array.isArray(paths)) return paths
  return Object.entries(paths).map(([route, to]) => `${route}: ${to}`)
}

function Inspector({ graph }: { graph: GraphSpec }) {
  return (
    <aside className="right panel" aria-label="Inspector">
      <h2>Inspector</h2>
      <p className="muted">Nothing selected: the state schema.</p>
      <table className="schema">
        <caption className="visually-hidden">State fields</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Reducer</th>
            <th scope="col">Default</th>
          </tr>
        </thead>
        <tbody>
          {graph.state.map((field) => (
            <tr key={field.name}>
              <th scope="row">{field.name}</th>
              <td>{field.reducer ?? field.channel ?? 'overwrite'}</td>
              <td>
                <code>{field.default === undefined ? '—' : JSON.stringify(field.default)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </aside>
  )
}
