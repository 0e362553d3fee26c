import { Position } from '@xyflow/react'
import { describe, expect, it } from 'vitest'
import {
  CLEARANCE,
  PARALLEL_GAP,
  bezier,
  cubicAt,
  edgePath,
  type Pt,
  type Rect,
} from './edgeGeometry'
import { createEdgeRouter, routeEdges, type RouteNode, type RouterWork } from './edgeRouter'

const W = 180
const H = 45
const box = (id: string, x: number, y: number): RouteNode => ({
  id,
  box: { x, y, w: W, h: H },
  sides: 'LR',
})

const inside = (p: Pt, r: Rect) => p.x > r.x && p.x < r.x + r.w && p.y > r.y && p.y < r.y + r.h

/** Points along a detour's path (its corners and straight pieces). */
function sample(d: string, per = 40): Pt[] {
  const v = [...d.matchAll(/-?[\d.]+/g)].map((m) => Number(m[0]))
  const pts: Pt[] = []
  for (let i = 0; i + 1 < v.length; i += 2) pts.push({ x: v[i] as number, y: v[i + 1] as number })
  const out: Pt[] = []
  for (let i = 1; i < pts.length; i++) {
    const [a, b] = [pts[i - 1] as Pt, pts[i] as Pt]
    for (let k = 0; k <= per; k++)
      out.push({ x: a.x + ((b.x - a.x) * k) / per, y: a.y + ((b.y - a.y) * k) / per })
  }
  return out
}

describe('routeEdges', () => {
  const edge = (id: string, source: string, target: string) => ({ id, source, target })

  it('leaves an edge with a clear bezier alone', () => {
    const nodes = [box('a', 0, 0), box('b', 300, 0)]
    expect(routeEdges(nodes, [edge('e', 'a', 'b')], true).size).toBe(0)
  })

  it('detours an edge around a node in its way, and the detour misses every box', () => {
    const nodes = [box('a', 0, 0), box('mid', 270, 0), box('c', 540, 0), box('below', 270, 90)]
    const lane = routeEdges(nodes, [edge('p', 'a', 'c')], true).get('p')?.lane
    expect(lane).toBeDefined()
    // Above `mid` (below it is `below`), clear of it by the clearance.
    expect(lane?.at).toBe(0 - CLEARANCE)
    const [path] = edgePath({
      s: { x: 180, y: 22.5 },
      sPos: Position.Right,
      t: { x: 540, y: 22.5 },
      tPos: Position.Left,
      offset: 0,
      lane,
    })
    for (const n of [nodes[1], nodes[3]] as RouteNode[])
      for (const p of sample(path)) expect(inside(p, n.box)).toBe(false)
  })

  it('spreads edges between the same two nodes apart: beziers by offset, detours by lane', () => {
    const nodes = [box('a', 0, 0), box('b', 300, 0)]
    const routes = routeEdges(
      nodes,
      [edge('ab', 'a', 'b'), edge('ba', 'b', 'a'), edge('ab2', 'a', 'b'), edge('ba2', 'b', 'a')],
      true,
    )
    // The two forward edges: beziers on either side of the straight line.
    expect(routes.get('ab')).toEqual({ offset: -PARALLEL_GAP / 2 })
    expect(routes.get('ab2')).toEqual({ offset: PARALLEL_GAP / 2 })
    // The two backward ones: round both nodes, one above and one below, clear of the boxes.
    const above = routes.get('ba')?.lane?.at ?? NaN
    const below = routes.get('ba2')?.lane?.at ?? NaN
    expect(above).toBeLessThanOrEqual(-CLEARANCE)
    expect(below).toBeGreaterThanOrEqual(H + CLEARANCE)
    // The forward middles stay between them.
    const mid = (o: number) =>
      cubicAt(
        bezier({ x: 180, y: 22.5 }, Position.Right, { x: 300, y: 22.5 }, Position.Left, o),
        0.5,
      )
    for (const o of [-PARALLEL_GAP / 2, PARALLEL_GAP / 2]) {
      expect(mid(o).y).toBeGreaterThan(above + 10)
      expect(mid(o).y).toBeLessThan(below - 10)
    }
  })

  it('separates two detours between stacked nodes, A→B and B→A, by their offsets', () => {
    // b stacked under a: both directions go backwards through the gap between them.
    const nodes = [box('a', 0, 0), box('b', 0, 120)]
    const routes = routeEdges(nodes, [edge('ab', 'a', 'b'), edge('ba', 'b', 'a')], true)
    const ab = routes.get('ab')?.lane?.at ?? NaN
    const ba = routes.get('ba')?.lane?.at ?? NaN
    expect(Math.abs(ab - ba)).toBeGreaterThanOrEqual(PARALLEL_GAP - 1)
    for (const at of [ab, ba]) {
      expect(at).toBeGreaterThan(H + CLEARANCE - 1)
      expect(at).toBeLessThan(120 - CLEARANCE + 1)
    }
  })

  it('routes top to bottom in the TB frame', () => {
    const tb = (id: string, x: number, y: number): RouteNode => ({
      id,
      box: { x, y, w: W, h: H },
      sides: 'TB',
    })
    const nodes = [tb('a', 0, 0), tb('mid', 0, 135), tb('c', 0, 270)]
    const lane = routeEdges(nodes, [edge('p', 'a', 'c')], false).get('p')?.lane
    expect(lane?.lr).toBe(false)
    const at = lane?.at ?? 0
    expect(at < -CLEARANCE + 1 || at > W + CLEARANCE - 1).toBe(true)
  })

  /** The canvas bench's graph: a grid of nodes, a chain, shortcuts and branch paths. */
  function benchGraph(n: number) {
    const id = (i: number) => `n${i}`
    const nodes = Array.from({ length: n }, (_, i) =>
      box(id(i), (i % 25) * 240, Math.floor(i / 25) * 90),
    )
    const edges = []
    for (let i = 0; i + 1 < n; i++) edges.push(edge(`c${i}`, id(i), id(i + 1)))
    for (let i = 0; i < n; i += 5)
      edges.push(edge(`a${i}`, id(i), id((i + 3) % n)), edge(`b${i}`, id(i), id((i + 25) % n)))
    for (let i = 1; i < n; i += 4) edges.push(edge(`x${i}`, id(i), id((i + 26) % n)))
    return { nodes, edges }
  }

  it('redoes only what a move changes, and ends where a fresh route would', () => {
    const { nodes, edges } = benchGraph(150)
    const route = createEdgeRouter()
    const first = route(nodes, edges, true)
    expect(first).toEqual(routeEdges(nodes, edges, true))
    // Nothing moved (a selection changed): the very same answer.
    expect(
      route(
        nodes.map((n) => ({ ...n })),
        edges,
        true,
      ),
    ).toBe(first)
    // Drag a few nodes about, one step at a time, into and out of other edges' ways.
    let now = nodes
    let seed = 7
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    for (let step = 0; step < 30; step++) {
      const k = Math.floor(random() * now.length)
      now = now.map((n, i) =>
        i === k
          ? {
              ...n,
              box: {
                ...n.box,
                x: n.box.x + (random() - 0.5) * 400,
                y: n.box.y + (random() - 0.5) * 200,
              },
            }
          : n,
      )
      expect(route(now, edges, true)).toEqual(routeEdges(now, edges, true))
    }
  })

  it('after edits (a rename, edges added and removed, a node deleted) ends where a fresh route would', () => {
    const { nodes, edges } = benchGraph(150)
    const route = createEdgeRouter()
    route(nodes, edges, true)
    const check = (n: RouteNode[], e: { id: string; source: string; target: string }[]) =>
      expect(route(n, e, true)).toEqual(routeEdges(n, e, true))
    // A rename: the node goes and comes back under a new id, its edges with it.
    const renamed = (id: string) => (id === 'n40' ? 'renamed' : id)
    const n1 = nodes.map((n) => ({ ...n, id: renamed(n.id) }))
    const e1 = edges.map((e) => ({ ...e, source: renamed(e.source), target: renamed(e.target) }))
    check(n1, e1)
    // An edge added across the grid, one between the same nodes as another, one removed.
    const e2 = [
      ...e1.filter((e) => e.id !== 'c70'),
      edge('new1', 'n3', 'n120'),
      edge('new2', 'n10', 'n11'),
    ]
    check(n1, e2)
    // A node deleted with its edges; the ids of the others stay.
    const n3 = n1.filter((n) => n.id !== 'n60')
    const e3 = e2.filter((e) => e.source !== 'n60' && e.target !== 'n60')
    check(n3, e3)
    // A node added in the way of other edges, with an edge.
    const n4 = [...n3, box('added', 2 * 240 + 100, 2 * 90 + 30)]
    check(n4, [...e3, edge('toAdded', 'n0', 'added')])
  })

  it('a drag step of one node in a 1,000-node graph routes only the pairs near it, on the same grid', () => {
    const { nodes, edges } = benchGraph(1000)
    const work: RouterWork = { pairs: 0, grids: 0 }
    const route = createEdgeRouter(work)
    route(nodes, edges, true)
    const all = work.pairs
    expect(work.grids).toBe(1)
    for (let k = 1; k <= 30; k++) {
      work.pairs = 0
      const now = nodes.map((n, i) =>
        i === 510 ? { ...n, box: { ...n.box, x: n.box.x + k * 4, y: n.box.y + k * 2 } } : n,
      )
      expect(route(now, edges, true)).toEqual(routeEdges(now, edges, true))
      expect(work.pairs).toBeGreaterThan(0)
      expect(work.pairs).toBeLessThan(all / 20)
    }
    // The grid of boxes is built once and kept up to date through the drag.
    expect(work.grids).toBe(1)
  })

  it('random drags, resizes, far moves and edge edits end where a fresh route would', () => {
    const { nodes, edges } = benchGraph(100)
    const work: RouterWork = { pairs: 0, grids: 0 }
    const route = createEdgeRouter(work)
    let seed = 11
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    let now = nodes
    let es = edges
    for (let step = 0; step < 200; step++) {
      const r = random()
      if (r < 0.1) {
        // An edge added or one removed, the nodes as they are.
        const a = Math.floor(random() * now.length)
        const b = Math.floor(random() * now.length)
        es =
          random() < 0.5 && es.length > 1
            ? es.filter((_, i) => i !== Math.floor(random() * es.length))
            : [...es, edge(`e${step}`, `n${a}`, `n${b}`)]
      } else if (r < 0.15) {
        // New objects for every node, the boxes unchanged (a selection).
        now = now.map((n) => ({ ...n, box: { ...n.box } }))
      } else {
        // One to three nodes moved: a drag step, a jump far out of the grid (its edge moves),
        // back into the middle, or a resize.
        const many = 1 + Math.floor(random() * 3)
        const picked = new Set(
          Array.from({ length: many }, () => Math.floor(random() * now.length)),
        )
        now = now.map((n, i) => {
          if (!picked.has(i)) return n
          const kind = random()
          const b = n.box
          const next =
            kind < 0.6
              ? { ...b, x: b.x + (random() - 0.5) * 300, y: b.y + (random() - 0.5) * 150 }
              : kind < 0.75
                ? { ...b, x: (random() - 0.3) * 12000, y: (random() - 0.3) * 4000 }
                : kind < 0.9
                  ? { ...b, x: 2400 + random() * 600, y: 300 + random() * 300 }
                  : { ...b, w: 60 + random() * 300, h: 30 + random() * 90 }
          return { ...n, box: next }
        })
      }
      expect(route(now, es, true)).toEqual(routeEdges(now, es, true))
    }
    expect(work.grids).toBe(1)
  })
})
