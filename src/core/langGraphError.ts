/**
 * LangGraph's BaseLangGraphError: an error with an optional `lc_error_code`, whose message
 * then ends with the troubleshooting line LangGraph.js appends. The errors LangGraph names
 * (InvalidUpdateError, GraphValueError, GraphRecursionError) extend it and set `name`; match
 * them by `name` and `lc_error_code` (see errorJson.ts), never `instanceof`, once they have
 * crossed a realm.
 */
export class LangGraphError extends Error {
  lc_error_code: string | undefined
  constructor(message: string, code?: string) {
    super(code ? withTroubleshooting(message, code) : message)
    this.lc_error_code = code
  }
}

/** LangGraph.js appends this line to the message of every error that has a code. */
export function withTroubleshooting(message: string, code: string): string {
  return `${message}\n\nTroubleshooting URL: https://docs.langchain.com/oss/javascript/langgraph/${code}/\n`
}
