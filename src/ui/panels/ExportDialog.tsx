import { useEffect, useMemo, useRef, useState } from 'react'
import { codeExports } from '../../store/codeExports'
import { exportFileName } from '../../store/documents'
import { download } from '../download'
import { CodeView } from '../editor/CodeView'
import { useApp } from '../storeContext'
import { Name } from '../Name'

/**
 * The open graph as code: LangGraph.js, LangGraph Python and the graph file side by side,
 * read-only, each with Copy and Download; and the deployable project as a zip.
 */
export function ExportDialog({ onClose }: { onClose(): void }) {
  const doc = useApp((s) => s.doc)
  const out = useMemo(() => codeExports(doc), [doc])
  const ref = useRef<HTMLDialogElement>(null)
  const [note, setNote] = useState<string | null>(null)
  useEffect(() => {
    const d = ref.current
    if (d && !d.open) d.showModal()
  }, [])
  const name = (doc as { name?: string } | null)?.name ?? 'graph'
  const copy = async (what: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      setNote(`Copied the ${what}.`)
    } catch (e) {
      setNote(`Could not copy: ${(e as Error).message}`)
    }
  }
  return (
    <dialog ref={ref} className="export-dialog" aria-label="Export" onClose={onClose}>
      <header className="row">
        <h2>
          Export <Name>{name}</Name>
        </h2>
        {out.ok && (
          <button
            type="button"
            className="primary"
            onClick={() => {
              setNote('Building the project…')
              // Let the note paint before the (synchronous) zip is built.
              setTimeout(() => {
                download(`${out.slug}.zip`, out.project() as BlobPart, 'application/zip')
                setNote(`Downloaded ${out.slug}.zip.`)
              }, 0)
            }}
          >
            Download project (.zip)
          </button>
        )}
        <span className="muted" aria-live="polite">
          {note}
        </span>
        <button type="button" onClick={() => ref.current?.close()}>
          Close
        </button>
      </header>
      {!out.ok ? (
        <div role="alert">
          <p>The graph has problems; fix them to export it as code:</p>
          <ul>
            {out.problems.map((p, i) => (
              <li key={i}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <div className="export-views">
          {(
            [
              [
                'LangGraph.js (TypeScript)',
                'TypeScript',
                'typescript',
                out.typescript,
                `${out.slug}.ts`,
              ],
              ['LangGraph (Python)', 'Python', 'python', out.python, `${out.slug}.py`],
              ['Graph file', 'graph file', 'json', out.graphFile, exportFileName(name)],
            ] as const
          ).map(([title, what, language, text, fileName]) => (
            <ExportView
              key={title}
              title={title}
              what={what}
              language={language}
              text={text}
              fileName={fileName}
              onCopy={copy}
            />
          ))}
        </div>
      )}
    </dialog>
  )
}

function ExportView(props: {
  title: string
  what: string
  language: 'typescript' | 'python' | 'json'
  text: string
  fileName: string
  onCopy(what: string, text: string): Promise<void>
}) {
  return (
    <section className="export-view" aria-label={props.title}>
      <div className="row">
        <h3>{props.title}</h3>
        <button type="button" onClick={() => void props.onCopy(props.what, props.text)}>
          Copy {props.what}
        </button>
        <button
          type="button"
          onClick={() => download(props.fileName, props.text, 'text/plain;charset=utf-8')}
        >
          Download {props.what}
        </button>
      </div>
      <CodeView
        value={props.text}
        language={props.language}
        label={`${props.title} code`}
        height="100%"
      />
    </section>
  )
}
