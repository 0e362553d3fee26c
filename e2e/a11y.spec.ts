import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { importGraph, TWO_STEPS } from './graphFiles'

/**
 * WCAG 2.1 AA on the built app: axe-core over the main states in both colour schemes, the
 * contrasts axe cannot measure (placeholders, outlines, handles, edges), focus rings, where
 * the focus goes after a rename or a fork, the way out of Monaco, reflow at 200 % zoom, the
 * live announcements, and what a screen reader hears for a node.
 */

const SHOTS = '/tmp/shots-a11y'
const run = (page: Page) => page.getByRole('button', { name: 'Run', exact: true })
const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`)
const status = (page: Page) => page.getByLabel('Run status')
const rows = (page: Page) => page.getByRole('listbox', { name: 'Checkpoints' }).getByRole('option')
const announcer = (page: Page) => page.getByRole('status', { name: 'Announcements' })
const tab = (page: Page, name: string) =>
  page.getByRole('tab', { name: new RegExp(`^${name}`) }).click()
const activeTag = (page: Page) => page.evaluate(() => document.activeElement?.tagName)

/**
 * A graph with problems of both kinds on its nodes, run: a and b may write `answer` in the
 * same step (warnings), c throws (the run fails there), a node added after is unreachable
 * (an error).
 */
async function openTroubled(page: Page, name: string) {
  await importGraph(page, {
    superstep: 1,
    name,
    state: [{ name: 'answer' }],
    nodes: [
      { id: 'a', code: "() => ({ answer: 'a' })" },
      { id: 'b', code: "() => ({ answer: 'b' })" },
      { id: 'c', code: "() => { throw new Error('no') }" },
    ],
    edges: [
      { from: '__start__', to: 'a' },
      { from: '__start__', to: 'b' },
      { from: '__start__', to: 'c' },
    ],
  } as { name: string })
  await run(page).click()
  await expect(node(page, 'c').locator('.ss-failed-mark')).toBeVisible()
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  await expect(page.locator('.ss-issues-error')).not.toHaveCount(0)
  await expect(page.locator('.ss-issues-warning')).not.toHaveCount(0)
}

async function open(page: Page, scheme: 'light' | 'dark' = 'light') {
  await page.emulateMedia({ colorScheme: scheme })
  await page.goto('/')
  await expect(run(page)).toBeEnabled()
  await expect(node(page, 'inc')).toBeVisible()
}

/**
 * axe-core over the page (WCAG 2.0/2.1 A and AA): no serious or critical violation. The
 * violations are listed in the failure message, one line per element.
 */
async function expectNoSeriousViolations(page: Page, state: string) {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    // Only the violations are kept in detail: a scan takes seconds here, not tens of seconds.
    .options({ resultTypes: ['violations'] })
    .analyze()
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  const lines = serious.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}) at ${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
  )
  expect(lines, `${state}:\n${lines.join('\n')}`).toEqual([])
}

/** The contrast of an element's colour `fg` (a computed-style property) against the colour behind it. */
async function contrast(target: Locator, fg: string, pseudo?: string): Promise<number> {
  return target.evaluate(
    (el, [prop, pseudoElt]) => {
      const parse = (css: string): [number, number, number, number] => {
        const srgb = css.match(/^color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)$/)
        if (srgb) {
          const [r, g, b, a] = srgb.slice(1).map((v) => (v === undefined ? 1 : Number(v)))
          return [r! * 255, g! * 255, b! * 255, a!]
        }
        const n = (css.match(/[\d.]+/g) ?? []).map(Number)
        return [n[0] ?? 0, n[1] ?? 0, n[2] ?? 0, n[3] ?? 1]
      }
      const lum = ([r, g, b]: number[]) => {
        const c = [r!, g!, b!].map((v) => {
          const s = v / 255
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
        })
        return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!
      }
      // The first opaque background at or above the element (its parent for an outline).
      const behind = (start: Element | null) => {
        for (let e = start; e; e = e.parentElement) {
          const bg = parse(getComputedStyle(e).backgroundColor)
          if (bg[3] > 0.9) return bg
        }
        return parse(getComputedStyle(document.body).backgroundColor)
      }
      const style = getComputedStyle(el, pseudoElt ?? null)
      const color = parse(style.getPropertyValue(prop))
      const bg = prop === 'color' ? behind(el) : behind(el.parentElement)
      const [a, b] = [lum(color), lum(bg)]
      return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)
    },
    [fg, pseudo] as const,
  )
}

test.describe('axe-core finds no serious violation', () => {
  test.setTimeout(240_000)

  for (const scheme of ['light', 'dark'] as const) {
    test(`first load, a node, the schema (${scheme})`, async ({ page }) => {
      await open(page, scheme)
      await expectNoSeriousViolations(page, `first load (${scheme})`)

      await node(page, 'inc').click()
      await expect(
        page
          .locator('.monaco-editor')
          .filter({ has: page.getByRole('textbox', { name: 'Code of inc' }) }),
      ).toBeVisible({ timeout: 15_000 })
      await expectNoSeriousViolations(page, `node selected (${scheme})`)

      await page.keyboard.press('Escape')
      await page.locator('.react-flow__pane').click({ position: { x: 12, y: 160 } })
      await page.getByRole('textbox', { name: 'Field name' }).first().focus()
      await expectNoSeriousViolations(page, `schema panel, a field focused (${scheme})`)
    })

    test(`the run drawer's tabs after a run (${scheme})`, async ({ page }) => {
      await open(page, scheme)
      await run(page).click()
      await expect(status(page)).toHaveAttribute('data-phase', 'done')
      // An older step: inc lit and queued, with its step badge.
      await rows(page).filter({ hasText: 'step 2' }).click()
      await expect(node(page, 'inc').locator('.ss-node')).toHaveClass(/ss-next/)
      for (const name of ['Channels', 'State', 'Writes', 'Diff']) {
        await tab(page, name)
        await expect(page.getByRole('tabpanel')).not.toBeEmpty()
        await expectNoSeriousViolations(page, `run drawer, ${name} (${scheme})`)
      }
      await page.screenshot({ path: `${SHOTS}/run-${scheme}.png` })
    })

    test(`a paused interrupt, problems on nodes, a failed node (${scheme})`, async ({ page }) => {
      await open(page, scheme)
      await page
        .getByRole('button', { name: 'New graph from template human approval gate' })
        .click()
      await run(page).click()
      await expect(status(page)).toHaveText('Waiting for a reply to interrupt() in review')
      await expect(page.getByRole('textbox', { name: 'Reply' })).toBeVisible()
      await expectNoSeriousViolations(page, `interrupt (${scheme})`)
      await page.screenshot({ path: `${SHOTS}/interrupt-${scheme}.png` })

      // Error and warning badges on the canvas, the problems list, a node that failed.
      await openTroubled(page, 'troubled')
      await expectNoSeriousViolations(page, `problems and a failed node (${scheme})`)
      await page.screenshot({ path: `${SHOTS}/problems-${scheme}.png` })
    })

    test(`the Export, Shortcuts and Settings dialogs (${scheme})`, async ({ page }) => {
      await open(page, scheme)
      await page.getByRole('button', { name: 'Export', exact: true }).click()
      const exportDialog = page.getByRole('dialog')
      await expect(exportDialog.locator('.monaco-editor').first()).toBeVisible({ timeout: 15_000 })
      await expectNoSeriousViolations(page, `Export (${scheme})`)
      await page.screenshot({ path: `${SHOTS}/export-${scheme}.png` })
      await page.keyboard.press('Escape')
      await expect(exportDialog).toBeHidden()

      await page.locator('.react-flow__pane').click({ position: { x: 12, y: 160 } })
      await page.keyboard.press('?')
      await expect(page.getByRole('dialog')).toBeVisible()
      await expectNoSeriousViolations(page, `Shortcuts (${scheme})`)
      await page.keyboard.press('Escape')
      await expect(page.getByRole('dialog')).toBeHidden()

      await page.getByRole('button', { name: 'Settings', exact: true }).click()
      await expect(page.getByRole('dialog')).toBeVisible()
      await expectNoSeriousViolations(page, `Settings (${scheme})`)
    })
  }
})

test.describe('contrast axe cannot measure', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`placeholders, badges, the queued outline, handles and edges (${scheme})`, async ({
      page,
    }) => {
      await open(page, scheme)
      // Placeholders: text, 4.5:1.
      const timeout = page.getByLabel('Run timeout in seconds')
      expect(await contrast(timeout, 'color', '::placeholder')).toBeGreaterThanOrEqual(4.5)
      const description = page.getByRole('textbox', { name: 'Description of count' })
      expect(await contrast(description, 'color', '::placeholder')).toBeGreaterThanOrEqual(4.5)
      // Edges and handles against the canvas: 3:1.
      const edge = page.locator('.react-flow__edge-path').first()
      expect(await contrast(edge, 'stroke')).toBeGreaterThanOrEqual(3)
      const handle = node(page, 'inc').locator('.react-flow__handle').first()
      expect(await contrast(handle, 'background-color')).toBeGreaterThanOrEqual(3)

      // The step badge (text, 4.5:1) and the queued outline (3:1) after a run.
      await run(page).click()
      await expect(status(page)).toHaveAttribute('data-phase', 'done')
      await rows(page).filter({ hasText: 'step 2' }).click()
      await expect(node(page, 'inc').locator('.ss-node')).toHaveClass(/ss-next/)
      const badge = node(page, 'inc').locator('.ss-step-badge')
      expect(await contrast(badge, 'color')).toBeGreaterThanOrEqual(4.5)
      expect(
        await contrast(node(page, 'inc').locator('.ss-node'), 'outline-color'),
      ).toBeGreaterThanOrEqual(3)
      // The Diff's "added" mark: text, 4.5:1.
      await rows(page).last().click()
      await tab(page, 'Diff')
      const added = page.locator('.change.added > .kind').first()
      await expect(added).toBeVisible()
      expect(await contrast(added, 'color')).toBeGreaterThanOrEqual(4.5)
      // The pressed toolbar button: text, 4.5:1.
      const pressed = page.getByRole('button', { name: 'Left to right' })
      await expect(pressed).toHaveAttribute('aria-pressed', 'true')
      expect(await contrast(pressed, 'color')).toBeGreaterThanOrEqual(4.5)
    })
  }

  for (const scheme of ['light', 'dark'] as const)
    test(`error, warning and failed badges (${scheme})`, async ({ page }) => {
      await open(page, scheme)
      await openTroubled(page, `badges ${scheme}`)
      for (const kind of ['error', 'warning', 'failed-mark']) {
        const badges = page.locator(
          kind === 'failed-mark' ? '.ss-failed-mark' : `.ss-issues-${kind}`,
        )
        const n = await badges.count()
        for (let i = 0; i < n; i++)
          expect(
            await contrast(badges.nth(i), 'color'),
            `${kind} badge ${scheme}`,
          ).toBeGreaterThanOrEqual(4.5)
      }
      expect(await page.locator('.ss-issues').count()).toBeGreaterThan(0)
    })
})

test('nodes and edges show a focus ring; arrow keys move a node and the move is saved', async ({
  page,
}) => {
  await open(page)
  const inc = node(page, 'inc')
  await inc.click()
  await expect(inc).toBeFocused()
  const ring = (l: Locator) =>
    l.evaluate((el) => {
      const s = getComputedStyle(el)
      return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) }
    })
  // Back to it by keyboard (Shift+Tab, Tab): the ring is shown for keyboard focus.
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Tab')
  await expect(inc).toBeFocused()
  expect(await ring(inc)).toEqual({ style: 'solid', width: 2 })
  await page.screenshot({ path: `${SHOTS}/focus-node.png` })

  // An edge: a band along it and a thicker line.
  const edge = page.getByRole('group', { name: 'Edge START → inc' })
  await edge.focus()
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Tab')
  await expect(edge).toBeFocused()
  const band = await edge.evaluate((g) => ({
    opacity: Number(
      getComputedStyle(g.querySelector('.react-flow__edge-interaction')!).strokeOpacity,
    ),
    width: parseFloat(getComputedStyle(g.querySelector('.react-flow__edge-path')!).strokeWidth),
  }))
  expect(band.opacity).toBeGreaterThan(0.2)
  expect(band.width).toBeGreaterThanOrEqual(3)
  await page.screenshot({ path: `${SHOTS}/focus-edge.png` })

  // Arrow keys on the focused, selected node move it by grid steps, as a drag would.
  const at = () =>
    inc.evaluate((el) => {
      const m = (el as HTMLElement).style.transform.match(/translate\(([-\d.]+)px, ?([-\d.]+)px\)/)
      return { x: Number(m?.[1]), y: Number(m?.[2]) }
    })
  await inc.click()
  const before = await at()
  // Snapped to the 15 px grid, as a drag is; Shift moves four steps.
  const snap = (v: number) => Math.round(v / 15) * 15
  const after = { x: snap(snap(before.x + 15) + 15), y: snap(before.y + 60) }
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('Shift+ArrowDown')
  await expect.poll(at).toEqual(after)
  await expect(inc).toBeFocused()
  // React Flow's own live region says where the node really is now.
  await expect(page.locator('[id^="react-flow__aria-live"]')).toHaveText(
    `Moved inc down. New position, x: ${after.x}, y: ${after.y}`,
  )
  // Saved: a reload puts it where the keys left it; one Undo puts back one step.
  await expect(page.getByLabel('Save state')).toHaveText('Saved')
  await page.reload()
  await expect(node(page, 'inc')).toBeVisible()
  expect(await at()).toEqual(after)
})

test('a screen reader hears a node’s kind, run state and problems, and START/END on edges', async ({
  page,
}) => {
  await open(page)
  await expect(page.getByRole('group', { name: 'Node inc, code', exact: true })).toBeVisible()
  for (const name of ['Edge START → inc', 'Path done: inc → END'])
    await expect(page.getByRole('group', { name, exact: true })).toBeAttached()
  await expect(page.locator('[aria-label*="__start__"], [aria-label*="__end__"]')).toHaveCount(0)

  await page.getByRole('button', { name: 'Step', exact: true }).click()
  await expect(
    page.getByRole('group', { name: 'Node inc, code, queued', exact: true }),
  ).toBeVisible()
  await page.getByRole('button', { name: 'Step', exact: true }).click()
  await expect(
    page.getByRole('group', { name: 'Node inc, code, done, queued', exact: true }),
  ).toBeVisible()

  await importGraph(page, {
    superstep: 1,
    name: 'agent',
    state: [{ name: 'messages', reducer: 'add_messages', default: [] }],
    nodes: [
      { id: 'agent', kind: 'model', model: { provider: 'scripted', replies: [{ content: 'hi' }] } },
      { id: 'boom', code: "() => { throw new Error('no') }" },
    ],
    edges: [
      { from: '__start__', to: 'boom' },
      { from: 'boom', to: 'agent' },
    ],
  } as { name: string })
  await expect(page.getByRole('group', { name: 'Node agent, model', exact: true })).toBeVisible()
  await run(page).click()
  await expect(status(page)).toHaveAttribute('data-phase', 'failed')
  // Failed, and (once the timeline has the failed step's checkpoint) queued to run again.
  await expect(
    page.getByRole('group', { name: /^Node boom, code, error(, queued)?$/ }),
  ).toBeVisible()
  await page.getByRole('button', { name: 'Add node', exact: true }).click()
  await expect(
    page.getByRole('group', { name: 'Node node_1, code, 1 problem', exact: true }),
  ).toBeVisible()
})

test.describe('the focus never falls to <body>', () => {
  test('after a rename in the inspector and on the canvas (F2)', async ({ page }) => {
    await open(page)
    await node(page, 'inc').click()
    const id = page.getByRole('textbox', { name: 'Node id' })
    await id.fill('add')
    await id.press('Enter')
    await expect(node(page, 'add')).toBeVisible()
    await expect(page.getByRole('textbox', { name: 'Node id' })).toBeFocused()
    await expect(page.getByRole('textbox', { name: 'Node id' })).toHaveValue('add')
    expect(await activeTag(page)).not.toBe('BODY')

    // F2 on the focused node renames it in place; Enter lands on the renamed node.
    await node(page, 'add').click()
    await page.keyboard.press('F2')
    const inline = page.getByRole('textbox', { name: 'Node name' })
    await expect(inline).toBeFocused()
    await inline.fill('bump')
    await page.keyboard.press('Enter')
    await expect(node(page, 'bump')).toBeFocused()
    // Escape leaves the name as it was, on the same node.
    await page.keyboard.press('F2')
    await expect(inline).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(node(page, 'bump')).toBeFocused()
    expect(await activeTag(page)).not.toBe('BODY')
  })

  test('after a state field is renamed', async ({ page }) => {
    await open(page)
    const name = page.getByRole('textbox', { name: 'Field name' }).first()
    await expect(name).toHaveValue('count')
    await name.fill('total')
    await name.press('Enter')
    const renamed = page.getByRole('textbox', { name: 'Field name' }).first()
    await expect(renamed).toHaveValue('total')
    await expect(renamed).toBeFocused()
    expect(await activeTag(page)).not.toBe('BODY')
  })

  test('after a fork: on the timeline, whose selected row is the fork', async ({ page }) => {
    await open(page)
    await run(page).click()
    await expect(status(page)).toHaveAttribute('data-phase', 'done')
    await rows(page).filter({ hasText: 'step 2' }).click()
    await tab(page, 'State')
    await page.getByRole('button', { name: 'Fork from here' }).click()
    const list = page.getByRole('listbox', { name: 'Checkpoints' })
    await expect(list).toBeFocused()
    const active = await list.getAttribute('aria-activedescendant')
    await expect(page.locator(`[id="${active}"]`)).toHaveAttribute('data-source', 'update')
    expect(await activeTag(page)).not.toBe('BODY')
  })
})

test.describe('Monaco keeps Tab; Ctrl+M gives it back', () => {
  test('the node code editor', async ({ page }) => {
    await open(page)
    await node(page, 'inc').click()
    const code = page.getByRole('textbox', { name: 'Code of inc' })
    const editor = page.locator('.code-editor').filter({ has: code })
    await expect(editor.locator('.monaco-editor')).toBeVisible({ timeout: 15_000 })
    await expect(editor.getByText('Ctrl+M: Tab moves focus')).toBeVisible()
    const inEditor = () =>
      page.evaluate(() => document.activeElement?.closest('.monaco-editor') !== null)
    await editor.locator('.view-lines').click()
    // Tab indents: the focus stays in the editor.
    await page.keyboard.press('Tab')
    expect(await inEditor()).toBe(true)
    await page.keyboard.press('Control+Z')
    await page.keyboard.press('Control+M')
    await expect(editor.getByText('Ctrl+M: Tab indents')).toBeVisible()
    await page.keyboard.press('Tab')
    expect(await inEditor()).toBe(false)
    expect(await activeTag(page)).not.toBe('BODY')
    await page.screenshot({ path: `${SHOTS}/tab-hint.png` })
  })

  test('the code view of the Export dialog', async ({ page }) => {
    await open(page)
    await page.getByRole('button', { name: 'Export', exact: true }).click()
    const view = page.getByRole('dialog').locator('.code-view').first()
    await expect(view.locator('.monaco-editor')).toBeVisible({ timeout: 15_000 })
    await expect(view.getByText('Ctrl+M: Tab moves focus')).toBeVisible()
    await view.locator('.view-lines').click()
    await page.keyboard.press('Control+M')
    await page.keyboard.press('Tab')
    expect(
      await page.evaluate(() => document.activeElement?.closest('.monaco-editor') !== null),
    ).toBe(false)
    expect(await activeTag(page)).not.toBe('BODY')
  })
})

test('at 200 % zoom (640x400) the layout reflows: Run in view, a usable canvas, no sideways scroll', async ({
  page,
}) => {
  await page.setViewportSize({ width: 640, height: 400 })
  await open(page)
  await expect(run(page)).toBeInViewport({ ratio: 1 })
  for (const name of ['Step', 'Stop', 'Export'])
    await expect(page.getByRole('button', { name, exact: true })).toBeInViewport({ ratio: 1 })
  const canvas = await page.getByRole('main', { name: 'Canvas' }).boundingBox()
  expect(canvas!.width).toBeGreaterThanOrEqual(200)
  expect(canvas!.height).toBeGreaterThanOrEqual(150)
  const widths = await page.evaluate(() => ({
    scroll: document.scrollingElement!.scrollWidth,
    inner: innerWidth,
  }))
  expect(widths.scroll).toBeLessThanOrEqual(widths.inner)
  // The run's status and the tabs are reachable in the drawer (it scrolls as a whole).
  await status(page).scrollIntoViewIfNeeded()
  await expect(status(page)).toBeInViewport()
  await page.getByRole('tab', { name: 'Interrupt' }).scrollIntoViewIfNeeded()
  await expect(page.getByRole('tab', { name: 'Interrupt' })).toBeInViewport()
  await page.screenshot({ path: `${SHOTS}/reflow-640.png` })
})

test.describe('one polite live region announces pauses, the end, interrupts and forks', () => {
  test('Step, Run to the end, a fork', async ({ page }) => {
    await open(page)
    const step = page.getByRole('button', { name: 'Step', exact: true })
    await step.click()
    await expect(announcer(page)).toHaveText('Paused at step 0, next: inc')
    await step.click()
    await expect(announcer(page)).toHaveText('Paused at step 1, next: inc')
    await page.getByRole('button', { name: 'Continue', exact: true }).click()
    await expect(announcer(page)).toHaveText('Run finished at step 3')
    // The status line shows the same words but is not live: nothing is said twice.
    await expect(status(page)).toHaveAttribute('aria-live', 'off')

    await rows(page).filter({ hasText: 'step 2' }).click()
    await tab(page, 'State')
    await page.getByRole('button', { name: 'Fork from here' }).click()
    await expect(announcer(page)).toHaveText(/^Forked from step 2\b/)
  })

  test('a breakpoint and an interrupt', async ({ page }) => {
    await open(page)
    await importGraph(page, TWO_STEPS)
    await run(page).click()
    await expect(announcer(page)).toHaveText('Paused before write (breakpoint)')

    await page.getByRole('button', { name: 'New graph from template human approval gate' }).click()
    await run(page).click()
    await expect(announcer(page)).toHaveText('Waiting for a reply to interrupt() in review')
  })
})
