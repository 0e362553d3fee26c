import { SCHEMA_VERSION, type SuperstepDb } from './db'

export interface OpenProblem {
  title: string
  detail: string
}

/** Why the database could not be opened, in words for the page; null when it opened. */
export async function openProblem(db: SuperstepDb): Promise<OpenProblem | null> {
  // Dexie would open a newer database anyway (and add what it lacks): refused before that,
  // so nothing reads or writes it.
  const stored = await storedVersion(db.name)
  if (stored !== undefined && stored > SCHEMA_VERSION) return newer(stored)
  try {
    await db.open()
    return null
  } catch (e) {
    const error = e as { name?: string; message?: string }
    if (error.name === 'VersionError') return newer(await storedVersion(db.name))
    return {
      title: 'Superstep cannot open its storage in this browser',
      detail:
        `IndexedDB refused to open the database "${db.name}": ${error.name ?? 'Error'}: ${error.message ?? String(e)}. ` +
        'Nothing was changed. A private window or a browser setting that blocks site data can cause this.',
    }
  }
}

function newer(stored: number | undefined): OpenProblem {
  return {
    title: 'This browser holds Superstep data from a newer version of Superstep',
    detail:
      `Its database is at version ${stored ?? 'unknown'}; this version of Superstep reads up to version ${SCHEMA_VERSION}. ` +
      'Nothing was read or changed: going back to an older format is refused, so that nothing is lost. ' +
      'Open the newer version of Superstep (reload after clearing the cache), and export from it what you need here.',
  }
}

async function storedVersion(name: string): Promise<number | undefined> {
  const list = await indexedDB.databases?.().catch(() => [])
  const v = list?.find((d) => d.name === name)?.version
  // Dexie stores version n as n × 10 (and may add 1 for a change of its own).
  return v === undefined ? undefined : Math.floor(v / 10)
}
