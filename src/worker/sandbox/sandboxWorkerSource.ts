import { foldWrites } from '../../core/channels/binaryOperatorAggregate'
import { routerState } from '../../core/compile/fusedRoutes'
import { namedReducers } from '../../core/reducers/named'
import { nextAnswer } from '../../core/pregel/interrupt'
import { Command, reviveControlGraph, Send } from '../../core/pregel/types'
import { toLogValue } from './logValue'
import { sandboxMain } from './sandboxMain'
import { SANDBOX_STARTED_MESSAGE } from './sandboxProtocol'

/**
 * Adjusts the sandbox worker's global before any user code runs (shipped as source text, so
 * self-contained). Nested workers go: one would outlive its call and its timeout. The worker
 * is not a secure context (its origin is opaque), so `crypto.randomUUID` is missing; user
 * code often calls it, so it is rebuilt from `getRandomValues`. Timers are counted while
 * pending: the function returned says whether one is (sandboxMain's `timersPending`), since a
 * timer left by one call can hold the sandbox when the next should begin.
 */
export function sandboxPrelude(self: Record<string, unknown>): () => boolean {
  type Timer = (handler: unknown, ms?: number, ...args: unknown[]) => number
  const pending = new Set<number>()
  const setTimer = self.setTimeout as Timer
  const setRepeat = self.setInterval as Timer
  const clear = self.clearTimeout as (id: number) => void
  self.setTimeout = (handler: unknown, ms?: number, ...args: unknown[]): number => {
    if (typeof handler !== 'function') {
      const kept = setTimer(handler, ms, ...args)
      pending.add(kept) // code as a string: counted until cleared
      return kept
    }
    const id = setTimer(
      (...a: unknown[]) => {
        pending.delete(id)
        ;(handler as (...a: unknown[]) => void)(...a)
      },
      ms,
      ...args,
    )
    pending.add(id)
    return id
  }
  self.setInterval = (handler: unknown, ms?: number, ...args: unknown[]): number => {
    const id = setRepeat(handler, ms, ...args)
    pending.add(id)
    return id
  }
  self.clearTimeout = self.clearInterval = (id: number): void => {
    pending.delete(id)
    clear(id)
  }
  for (const name of ['Worker', 'SharedWorker']) {
    try {
      delete self[name]
    } catch {
      // not configurable: leave it
    }
  }
  const crypto = self.crypto as (Crypto & { randomUUID?: () => string }) | undefined
  if (crypto && typeof crypto.randomUUID !== 'function') {
    crypto.randomUUID = () => {
      const b = crypto.getRandomValues(new Uint8Array(16))
      b[6] = (b[6]! & 0x0f) | 0x40
      b[8] = (b[8]! & 0x3f) | 0x80
      const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    }
  }
  return () => pending.size > 0
}

/**
 * The sandbox worker's whole program as one self-contained script: core's `Send`, `Command`,
 * `nextAnswer`, `foldWrites`, `toLogValue`, `routerState`, the named reducers and
 * `sandboxMain`, each by its source text (whatever the
 * bundler and minifier made of them), then the prelude, a call of `sandboxMain(self, lib)`
 * and the started signal. It imports nothing, so it runs from a `blob:` URL inside the
 * opaque-origin iframe.
 */
export function sandboxWorkerSource(): string {
  return [
    '"use strict";',
    `const Send = ${Send.toString()};`,
    `const Command = ${Command.toString()};`,
    `const reviveControlGraph = ${reviveControlGraph.toString()};`,
    'Send.revive = Command.revive = (x) => reviveControlGraph(x, Send, Command);',
    `const nextAnswer = ${nextAnswer.toString()};`,
    `const foldWrites = ${foldWrites.toString()};`,
    `const toLogValue = ${toLogValue.toString()};`,
    `const routerState = ${routerState.toString()};`,
    `const reducers = (${namedReducers.toString()})();`,
    `const timersPending = (${sandboxPrelude.toString()})(self);`,
    `(${sandboxMain.toString()})(self, { Send, Command, nextAnswer, foldWrites, toLogValue, routerState, reducers, timersPending });`,
    `self.postMessage({ type: ${JSON.stringify(SANDBOX_STARTED_MESSAGE)} });`,
  ].join('\n')
}
