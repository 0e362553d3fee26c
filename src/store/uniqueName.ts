/**
 * A graph name no other graph of the library has: `name` itself when free, else the first
 * free of `name 2`, `name 3`… (a name that already ends in a number counts on from it).
 */
export function uniqueName(name: string, taken: Iterable<string>): string {
  const names = new Set(taken)
  if (!names.has(name)) return name
  const m = /^(.*\S) (\d+)$/.exec(name)
  const stem = m ? (m[1] as string) : name
  let n = m ? Number(m[2]) + 1 : 2
  while (names.has(`${stem} ${n}`)) n++
  return `${stem} ${n}`
}
