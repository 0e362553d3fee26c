/** LangGraph's START and END node names. */
export const START = '__start__'
export const END = '__end__'
