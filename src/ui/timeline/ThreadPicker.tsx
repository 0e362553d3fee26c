import { useState } from 'react'
import { download } from '../download'
import { useApp } from '../storeContext'
import { showBidiControls } from '../bidi'
import { TransferProgress } from './TransferProgress'

/** The open graph's threads: switch, new, rename, delete, export and import. */
export function ThreadPicker({ onImport }: { onImport(): void }) {
  const s = useApp((s) => ({
    threads: s.threads,
    threadId: s.threadId,
    switchThread: s.switchThread,
    newThread: s.newThread,
    renameThread: s.renameThread,
    deleteThread: s.deleteThread,
    exportThreadFile: s.exportThreadFile,
    transferring: s.transfer !== null,
    running: s.runState === 'running',
    hasGraph: s.current !== null,
  }))
  const [renaming, setRenaming] = useState<string | null>(null)
  const current = s.threads.find((t) => t.threadId === s.threadId)
  const saveThread = async () => {
    const file = await s.exportThreadFile()
    if (file) download(file.fileName, file.file, 'application/json')
  }
  if (renaming !== null) {
    return (
      <form
        className="thread-picker"
        onSubmit={(e) => {
          e.preventDefault()
          void s.renameThread(s.threadId, renaming).then(() => setRenaming(null))
        }}
      >
        <input
          aria-label="Thread name"
          value={renaming}
          autoFocus
          onChange={(e) => setRenaming(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)}
        />
        <button type="submit">Save</button>
      </form>
    )
  }
  return (
    <div className="thread-picker" role="group" aria-label="Thread">
      <select
        aria-label="Thread"
        value={s.threadId}
        disabled={s.running}
        onChange={(e) => void s.switchThread(e.target.value)}
      >
        {s.threads.map((t) => (
          <option key={t.threadId} value={t.threadId}>
            {showBidiControls(t.name)} ({t.count})
          </option>
        ))}
      </select>
      <button type="button" disabled={s.running || !s.hasGraph} onClick={() => void s.newThread()}>
        New thread
      </button>
      <button type="button" disabled={s.running} onClick={() => setRenaming(current?.name ?? '')}>
        Rename thread
      </button>
      <button type="button" disabled={s.running} onClick={() => void s.deleteThread(s.threadId)}>
        Delete thread
      </button>
      <button
        type="button"
        disabled={!current?.count || s.transferring}
        onClick={() => void saveThread()}
      >
        Export thread
      </button>
      <button type="button" disabled={s.transferring} onClick={onImport}>
        Import thread
      </button>
      <TransferProgress />
    </div>
  )
}
