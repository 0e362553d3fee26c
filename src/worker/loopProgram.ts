/**
 * The loop program of runs beside the code (vite.config.ts's `virtual:sandbox-loop`), as a
 * module of its own: the service imports it on the first run that goes beside its code.
 */
export { default as loopProgram } from 'virtual:sandbox-loop'
