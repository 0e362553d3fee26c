import { useState } from 'react'
import { announce, type AnnounceMemory } from './announcement'
import { useApp } from './storeContext'

/**
 * The page's one polite live region for the run: it announces where a run paused, that it
 * finished or waits for a reply, and forks (announcement.ts decides the words). The status
 * line beside the timeline shows the same and is not live itself, so nothing is said twice.
 */
export function Announcer() {
  const input = useApp((s) => ({
    threadId: s.threadId,
    runState: s.runState,
    pausedBy: s.pausedBy,
    interrupts: s.interrupts,
    timeline: s.timeline,
    spec: s.spec,
  }))
  const { spec, ...rest } = input
  const [heard, setHeard] = useState<{ memory: AnnounceMemory | null; text: string; seq: number }>({
    memory: null,
    text: '',
    seq: 0,
  })
  const out = announce(heard.memory, { ...rest, interruptBefore: spec?.interruptBefore ?? [] })
  // Worked out while rendering from the last state seen (React's "previous props" pattern).
  if (!sameMemory(out.memory, heard.memory))
    setHeard({
      memory: out.memory,
      text: out.text ?? heard.text,
      seq: out.text === null ? heard.seq : heard.seq + 1,
    })
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-label="Announcements">
      {/* A new element per announcement: the same words said again are announced again. */}
      <span key={heard.seq}>{heard.text}</span>
    </div>
  )
}

function sameMemory(a: AnnounceMemory, b: AnnounceMemory | null): boolean {
  return (
    b !== null &&
    a.threadId === b.threadId &&
    a.headId === b.headId &&
    a.runState === b.runState &&
    a.said === b.said &&
    a.forkedHead === b.forkedHead
  )
}
