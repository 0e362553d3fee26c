/** The loop program a sandbox runs beside the code (vite.config.ts's sandboxLoopPlugin). */
declare module 'virtual:sandbox-loop' {
  const source: string
  export default source
}
