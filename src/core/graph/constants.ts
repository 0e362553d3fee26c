/**
 * LangGraph's reserved names, in one place: the node names a graph may not use, the channels
 * and write keys of the machinery, and the field names they take.
 */

/** LangGraph's START and END node names. */
export const START = '__start__'
export const END = '__end__'
/** The name input writes are made under (`versions_seen.__input__`; updateState `asNode`). */
export const INPUT = '__input__'
/** updateState's `asNode` that copies a checkpoint (LangGraph's `__copy__`). */
export const COPY = '__copy__'
/** The channel (and write key) of pending interrupts, and of resume values. */
export const INTERRUPT = '__interrupt__'
export const RESUME = '__resume__'
/** Write keys of the machinery: a task's error, a task with no writes, a return value, a scheduled task. */
export const ERROR = '__error__'
export const NO_WRITES = '__no_writes__'
export const RETURN = '__return__'
export const SCHEDULED = '__scheduled__'
/** The channel Sends travel in, and the two kinds of task (LangGraph's PUSH and PULL). */
export const TASKS = '__pregel_tasks'
export const PUSH = '__pregel_push'
export const PULL = '__pregel_pull'

/** Node names LangGraph refuses: START and END (StateGraph), `__interrupt__` (Pregel's validate). */
export const RESERVED_NODE_NAMES: ReadonlySet<string> = new Set([START, END, INTERRUPT])

const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set([START, END, TASKS, INTERRUPT, RESUME])

/** Whether a state field may not take `name`: LangGraph's own channels (and their prefixes). */
export const isReservedFieldName = (name: string): boolean =>
  RESERVED_FIELD_NAMES.has(name) || name.startsWith('branch:to:') || name.startsWith('join:')
