import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import {
  keepPixels,
  largestPercent,
  layoutRecord,
  readLayout,
  settle,
  storageKey,
  useSplit,
  type LayoutStorage,
  type SplitSpec,
} from './useSplit'

const memory = (init: Record<string, string> = {}): LayoutStorage & { data: typeof init } => {
  const data = { ...init }
  return {
    data,
    getItem: (k) => data[k] ?? null,
    setItem: (k, v) => void (data[k] = v),
  }
}

const columns = (storage: LayoutStorage = memory()): SplitSpec => ({
  id: 'cols',
  orientation: 'horizontal',
  panels: [
    { id: 'side', defaultSize: 220, minSize: 170, maxSize: '35%', collapsible: true },
    { id: 'canvas', minSize: 320 },
    { id: 'right', defaultSize: '24%', minSize: 260, maxSize: '55%', collapsible: true },
  ],
  storage,
  keepPixels: true,
})
const at1280 = { group: 1280, separators: 2 }

describe('useSplit: saved layouts', () => {
  it("reads react-resizable-panels' saved layout (same key, same value) and writes it back alike", () => {
    const saved = '{"side":17.214,"canvas":58.786,"right":24}'
    const spec = columns(memory({ [storageKey('cols')]: saved }))
    expect(storageKey('cols')).toBe('react-resizable-panels:cols')
    const sizes = readLayout(spec)
    expect(sizes).toEqual({ side: 17.214, right: 24 })
    expect(JSON.stringify(layoutRecord(spec, sizes!))).toBe(saved)
    // A collapsed panel is saved as 0, as the library saved it.
    expect(layoutRecord(spec, { side: 0, right: 30.5 })).toEqual({
      side: 0,
      canvas: 69.5,
      right: 30.5,
    })
  })

  it('ignores a saved layout that does not name every panel with a percentage', () => {
    for (const bad of [
      '{"side":17,"right":24}',
      '{"side":"x","canvas":1,"right":2}',
      'not json',
      '[]',
    ])
      expect(readLayout(columns(memory({ [storageKey('cols')]: bad }))), bad).toBeNull()
    expect(readLayout(columns())).toBeNull()
  })
})

describe('useSplit: limits', () => {
  const spec = columns()
  const sizes = { side: 17.2, right: 24 }

  it('keeps a panel within its minimum and maximum', () => {
    expect(settle(spec, sizes, 'right', 60, at1280)).toBe(55)
    expect(settle(spec, sizes, 'right', 18, at1280)).toBeCloseTo((260 * 100) / 1280)
  })

  it('collapses a collapsible panel asked for less than half its minimum, and only then', () => {
    const min = (260 * 100) / 1280
    expect(settle(spec, sizes, 'right', min / 2 - 0.1, at1280)).toBe(0)
    expect(settle(spec, sizes, 'right', min / 2 + 0.1, at1280)).toBeCloseTo(min)
    const fixed: SplitSpec = {
      ...spec,
      panels: spec.panels.map((p) => ({ ...p, collapsible: false })),
    }
    expect(settle(fixed, sizes, 'right', 0, at1280)).toBeCloseTo(min)
  })

  it("stops where the filling panel's minimum and the other panels leave no more room", () => {
    // 1280 px: the side at 35% (448 px), the canvas at least 320 px and 2 px of separators.
    const room = 100 - 35 - (322 * 100) / 1280
    expect(largestPercent(spec, { side: 35, right: 24 }, 'right', at1280)).toBeCloseTo(room)
    expect(settle(spec, { side: 35, right: 24 }, 'right', 55, at1280)).toBeCloseTo(room)
    expect(largestPercent(spec, { side: 10, right: 24 }, 'right', at1280)).toBe(55)
  })

  it('keeps pixel sizes when the group is resized, within the limits at the new size', () => {
    const wide = { group: 1920, separators: 2 }
    const kept = keepPixels(spec, { side: 17.2, right: 24 }, at1280, wide)
    expect((kept.side! * 1920) / 100).toBeCloseTo((17.2 * 1280) / 100)
    expect((kept.right! * 1920) / 100).toBeCloseTo((24 * 1280) / 100)
    // A collapsed panel stays collapsed; one over its maximum at the new size is brought in.
    const narrow = keepPixels(spec, { side: 0, right: 55 }, wide, { group: 1000, separators: 2 })
    expect(narrow.side).toBe(0)
    expect(narrow.right).toBe(55)
  })
})

describe('useSplit: what the page draws', () => {
  function Columns({ spec }: { spec: SplitSpec }) {
    const split = useSplit(spec)
    return (
      <div {...split.group}>
        <div {...split.panel('side')} />
        <div {...split.separator('side', 'Sidebar', 'Drag')} />
        <div {...split.panel('canvas')} />
        <div {...split.separator('right', 'Inspector')} />
        <div {...split.panel('right')} />
      </div>
    )
  }

  it('draws the defaults as CSS sizes before anything is measured, with separators for assistive tech', () => {
    const html = renderToStaticMarkup(<Columns spec={columns()} />)
    expect(html).toContain(
      'id="side" class="ss-panel" style="flex:0 1 220px;min-width:170px;max-width:35%"',
    )
    expect(html).toContain('id="canvas" class="ss-panel" style="flex:1 1 0px;min-width:320px"')
    expect(html).toContain(
      'id="right" class="ss-panel" style="flex:0 1 24%;min-width:260px;max-width:55%"',
    )
    expect(html).toMatch(
      /<div role="separator" tabindex="0" class="ss-separator" id="side-separator" data-split-of="cols" aria-label="Sidebar" title="Drag" aria-orientation="vertical" aria-controls="side" aria-valuenow="0" aria-valuemin="0"><\/div>/,
    )
    // Unmeasured, a separator still says where it is (axe: aria-required-attr):
    // a percentage default stands in for the size.
    expect(html).toMatch(/aria-label="Inspector"[^>]*aria-valuenow="24"/)
  })

  it('draws a saved layout, a collapsed panel as collapsed, and the separator says its size', () => {
    const spec = columns(memory({ [storageKey('cols')]: '{"side":0,"canvas":70,"right":30}' }))
    const html = renderToStaticMarkup(<Columns spec={spec} />)
    expect(html).toContain(
      'id="side" class="ss-panel" style="flex:0 0 0px;min-width:0" data-collapsed="true"',
    )
    expect(html).toContain(
      'id="right" class="ss-panel" style="flex:0 1 30%;min-width:260px;max-width:55%"',
    )
    expect(html).toMatch(/aria-label="Inspector"[^>]*aria-valuenow="30"/)
  })
})
