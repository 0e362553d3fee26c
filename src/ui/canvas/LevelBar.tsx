import type { Level } from '../../core/graph/levels'
import { useApp } from '../storeContext'
import { Name } from '../Name'

/**
 * Where the canvas is when it shows a subgraph: the path from the graph down, each part a way
 * back (breadcrumbs), and the key that goes one level up. Nothing at the root.
 */
export function LevelBar({ level }: { level: Level }) {
  const { openLevel, rootName } = useApp((s) => ({
    openLevel: s.openLevel,
    rootName: s.spec?.name ?? '',
  }))
  if (level.path.length === 0) return null
  return (
    <nav className="ss-levels" aria-label="Subgraph path">
      <ol>
        <li>
          <button type="button" className="link" onClick={() => openLevel([])}>
            <Name>{rootName}</Name>
          </button>
        </li>
        {level.path.map((name, i) => {
          const last = i === level.path.length - 1
          return (
            <li key={i}>
              <span aria-hidden="true" className="ss-levels-sep">
                ›
              </span>
              {last ? (
                <span aria-current="page" title="The subgraph this canvas edits">
                  <Name>{name}</Name>
                </span>
              ) : (
                <button
                  type="button"
                  className="link"
                  onClick={() => openLevel(level.path.slice(0, i + 1))}
                >
                  <Name>{name}</Name>
                </button>
              )}
            </li>
          )
        })}
      </ol>
      <button
        type="button"
        className="ss-levels-up"
        onClick={() => openLevel(level.path.slice(0, -1))}
        title="Back to the graph that uses it (Shift+Enter, or Ctrl+↑)"
      >
        Up
      </button>
    </nav>
  )
}
