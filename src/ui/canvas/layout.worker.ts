/**
 * The layout worker: elk's layered layout off the main thread. One request per worker (see
 * `runElkInWorker` in elkLayout.ts); elk.bundled.js runs elk inside this worker itself.
 */
import ELK from 'elkjs/lib/elk.bundled.js'
import type { ElkLayoutRequest, ElkLayoutResponse } from './elkLayout'

/** The worker's global scope, as far as this file uses it. */
interface WorkerScope {
  postMessage(message: ElkLayoutResponse): void
  addEventListener(type: 'message', listener: (e: MessageEvent<ElkLayoutRequest>) => void): void
}

const scope = self as unknown as WorkerScope
const elk = new ELK()

// elk throws GWT exceptions, which are not always Errors: keep whatever message there is.
const messageOf = (e: unknown): string =>
  typeof e === 'object' && e !== null && 'message' in e ? String(e.message) : String(e)

scope.addEventListener('message', (e) => {
  elk.layout(e.data.graph).then(
    (graph) => scope.postMessage({ ok: true, graph }),
    (error: unknown) => scope.postMessage({ ok: false, message: messageOf(error) }),
  )
})
