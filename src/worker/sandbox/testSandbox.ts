import { foldWrites } from '../../core/channels/binaryOperatorAggregate'
import { routerState } from '../../core/compile/fusedRoutes'
import { namedReducers } from '../../core/reducers/named'
import { nextAnswer } from '../../core/pregel/interrupt'
import { Command, Send } from '../../core/pregel/types'
import { toLogValue } from './logValue'
import { sandboxMain, type SandboxSelf } from './sandboxMain'
import { SANDBOX_PORT_MESSAGE } from './sandboxProtocol'

type Listener = Parameters<SandboxSelf['addEventListener']>[1]

/** A fake worker global: records the sandbox's listener and what it posts on `self`. */
export function fakeSelf(): SandboxSelf & {
  posted: unknown[]
  postMessage(message: unknown): void
  connect(): MessagePort
} {
  let listener: Listener | null = null
  const opened: MessagePort[] = []
  return {
    posted: [],
    addEventListener(_type, l) {
      listener = l
    },
    postMessage(message) {
      this.posted.push(message)
    },
    /** Hands the sandbox a port, as the iframe does; returns the host's end. */
    connect() {
      const { port1, port2 } = new MessageChannel()
      opened.push(port1, port2)
      listener?.({ data: { type: SANDBOX_PORT_MESSAGE }, ports: [port2] })
      return port1
    },
  }
}

/**
 * sandboxMain running in this realm (Node), connected: returns the host's end of its port.
 * `timersPending` stands in for the worker prelude's count of user timers (default: none).
 * Test-only; close the port when done.
 */
export function startSandboxInProcess(timersPending?: () => boolean): MessagePort {
  const self = fakeSelf()
  const reducers = namedReducers()
  const lib = { Send, Command, nextAnswer, foldWrites, toLogValue, routerState, reducers }
  sandboxMain(self, { ...lib, ...(timersPending && { timersPending }) })
  return self.connect()
}
