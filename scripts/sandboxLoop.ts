/**
 * The loop program of runs beside the code (vite.config.ts's `virtual:sandbox-loop`):
 * src/worker/sandbox/loopMain.ts and what it imports (the Pregel loop, the channels, the
 * compiler, the code host) bundled by esbuild into one classic script that defines
 * `__superstepLoop`, loopMain's exports. Also built unminified by bench/besideLoop.bench.ts,
 * so a profile of the sandbox names its functions.
 */
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')

/** The program's text, and the files it was built from (relative to the project). */
export async function buildSandboxLoop(
  options: { minify?: boolean } = {},
): Promise<{ text: string; inputs: string[] }> {
  const { build } = await import('esbuild')
  const out = await build({
    entryPoints: [resolve(ROOT, 'src/worker/sandbox/loopMain.ts')],
    absWorkingDir: ROOT,
    bundle: true,
    format: 'iife',
    globalName: '__superstepLoop',
    platform: 'browser',
    target: 'es2022',
    minify: options.minify ?? true,
    legalComments: 'none',
    metafile: true,
    write: false,
    plugins: [
      {
        // Replies checked in the realm they come from guard nothing (see the modules).
        name: 'sandbox-loop-lean',
        setup(b) {
          b.onResolve({ filter: /\/replySchema$/ }, (args) => ({
            path: resolve(args.resolveDir, 'replySchemaTrusted.ts'),
          }))
          // The code was parsed before the run: no SyntaxError is left to place.
          b.onResolve({ filter: /\/core\/graph\/code$/ }, (args) =>
            args.importer.endsWith('sandboxHost.ts')
              ? { path: resolve(ROOT, 'src/worker/sandbox/syntaxUnchecked.ts') }
              : undefined,
          )
        },
      },
    ],
  })
  const text = out.outputFiles[0]?.text
  if (text === undefined) throw new Error('esbuild wrote no loop program')
  return { text, inputs: Object.keys(out.metafile.inputs).map((f) => resolve(ROOT, f)) }
}
