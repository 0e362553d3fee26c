/** Whether a file is a Superstep thread file: its first key is `superstepThread`. */
export async function isThreadFile(file: Blob): Promise<boolean> {
  const head = await file.slice(0, 256).text()
  return /^\s*\{\s*"superstepThread"\s*:/.test(head)
}
