/**
 * The generated big graph of the canvas benches: canvas-test.html's `?bench=N`, and the same
 * graph imported into the app (bench/canvas.bench.ts).
 */
import type { GraphSpec } from '../../core/graph/schema'

/** `n` nodes on a grid, `1.5 n` edges: a chain, shortcuts, and branch paths. */
export function benchDoc(n: number): GraphSpec {
  const id = (i: number) => `n${i}`
  const cols = 25
  const nodes = Array.from({ length: n }, (_, i) => ({
    id: id(i),
    // Each node its own code, as in a real graph: nothing is parsed once for all.
    code: `(state) => ({ count: ${i} })`,
    position: { x: (i % cols) * 240, y: Math.floor(i / cols) * 90 },
  }))
  const edges: GraphSpec['edges'] = [{ from: '__start__', to: id(0) }]
  for (let i = 0; i + 1 < n; i++) edges.push({ from: id(i), to: id(i + 1) })
  const branches: NonNullable<GraphSpec['branches']> = []
  let extra = Math.round(n * 1.5) - edges.length
  for (let i = 0; extra > 0; i = (i + 7) % n) {
    if (extra >= 2 && i % 5 === 0) {
      branches.push({
        from: id(i),
        router: "(state) => 'a'",
        paths: { a: id((i + 3) % n), b: id((i + cols) % n) },
      })
      extra -= 2
    } else {
      edges.push({ from: id(i), to: id((i + cols + 1) % n) })
      extra -= 1
    }
  }
  const state = [{ name: 'count', reducer: 'add' as const, default: 0 }]
  return { superstep: 1, name: `bench-${n}`, state, nodes, edges, branches }
}
