/** LangGraph's START and END node names. */
export const START = '__start__'
export const END = '__end__'
/** The name input writes are made under (`versions_seen.__input__`; updateState `asNode`). */
export const INPUT = '__input__'
/** updateState's `asNode` that copies a checkpoint (LangGraph's `__copy__`). */
export const COPY = '__copy__'
