/** A model node's endpoint, as a graph document names it. */
export interface ModelEndpoint {
  node: string
  baseUrl: string
}

/**
 * The endpoints a graph document's model nodes call (`provider: "openai"`), read from the raw
 * document so that an untrusted, even invalid, file can be shown before anything runs.
 */
export function modelEndpoints(doc: unknown): ModelEndpoint[] {
  const nodes = (doc as { nodes?: unknown } | null)?.nodes
  if (!Array.isArray(nodes)) return []
  const found: ModelEndpoint[] = []
  for (const n of nodes as unknown[]) {
    const node = n as { id?: unknown; model?: { provider?: unknown; baseUrl?: unknown } } | null
    const model = node?.model
    if (model && model.provider !== 'scripted' && model.baseUrl !== undefined)
      found.push({ node: String(node.id), baseUrl: String(model.baseUrl) })
  }
  return found
}
