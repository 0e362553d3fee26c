/**
 * Whether the pointer is down on a canvas node: a click or a drag under way. The inspector
 * holds what it shows meanwhile and follows when the pointer is released, so a drag that
 * starts by selecting a node is not held up by the inspector drawing that node (its code
 * editor takes tens of milliseconds to make, in the frames the node should be moving in).
 */
let pressed = false
const listeners = new Set<() => void>()

export const nodePress = {
  get: (): boolean => pressed,
  set(down: boolean): void {
    if (down === pressed) return
    pressed = down
    for (const l of listeners) l()
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  },
}
