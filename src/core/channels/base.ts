import { LangGraphError } from '../langGraphError'

/**
 * A channel holds one state field (or one piece of the graph's wiring) between
 * super-steps, with LangGraph's channel contract: `update` returns true iff the
 * channel changed, and only then is its version bumped.
 */
export const EMPTY: unique symbol = Symbol('empty')
export type Empty = typeof EMPTY

export interface Channel {
  readonly kind: ChannelKind
  /** Apply one super-step's writes; true iff the channel changed. */
  update(values: readonly unknown[]): boolean
  /** The value, or EMPTY when the channel has none (LangGraph's EmptyChannelError). */
  get(): unknown
  isAvailable(): boolean
  /** What the checkpoint stores, or EMPTY when the channel stores nothing. */
  checkpoint(): unknown
  /** A fresh channel of the same kind holding a checkpointed value (EMPTY = empty). */
  fromCheckpoint(value: unknown): Channel
  /** Called after the channel's value was read by a triggered task; true iff it changed. */
  consume(): boolean
  /** Called when the graph would otherwise stop; true iff it changed. */
  finish(): boolean
}

export type ChannelKind =
  | 'LastValue'
  | 'LastValueAfterFinish'
  | 'BinaryOperatorAggregate'
  | 'Topic'
  | 'EphemeralValue'
  | 'NamedBarrierValue'
  | 'NamedBarrierValueAfterFinish'

/** The error LangGraph raises for an update a channel cannot take. */
export class InvalidUpdateError extends LangGraphError {
  override name = 'InvalidUpdateError'
}
