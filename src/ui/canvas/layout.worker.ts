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
  // elk is loaded (this module ran) and has the graph: the page can say it is at work.
  scope.postMessage({ kind: 'started' })
  elk.layout(e.data.graph).then(
    (graph) => scope.postMessage({ kind: 'done', graph }),
    (error: unknown) => scope.postMessage({ kind: 'failed', message: messageOf(error) }),
  )
})
