/**
 * zod for the pure core: lib is where the core's few third-party packages come in (each
 * pure, with no DOM, timers or I/O), so `src/core` itself imports nothing but `src/lib`.
 */
export { z } from 'zod'
