/**
 * A 128-bit non-cryptographic hash as 32 hex digits (four FNV-1a lanes with different
 * offsets): stable ids for interrupts, like LangGraph's xxh3 ids.
 */
export function hash128(text: string): string {
  const lanes = [0x811c9dc5, 0x01000193 ^ 0x5bd1e995, 0x2545f491, 0x9e3779b9]
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    for (let l = 0; l < 4; l++) {
      lanes[l] = Math.imul((lanes[l] as number) ^ (c + l * 0x9e), 0x01000193)
    }
  }
  return lanes.map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('')
}
