import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { build, type Plugin, type Rolldown } from 'vite'

const ADMIN_DIR = join(import.meta.dirname, '..')
/** Where the console lands in dist/, read by the service's /admin route (src/service/routes/admin.ts). */
export const CONSOLE_OUT_DIR = 'admin'

/** The console as one ES module: Preact, signals and the console's views, minified. */
async function bundleConsole(): Promise<string> {
  const output = (await build({
    configFile: false,
    logLevel: 'warn',
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      lib: { entry: join(ADMIN_DIR, 'main.tsx'), formats: ['es'], fileName: () => 'console.js' },
      rolldownOptions: { output: { minify: true, codeSplitting: false } },
    },
  })) as Rolldown.RolldownOutput[]
  const chunk = output[0]?.output.find((item): item is Rolldown.OutputChunk => item.type === 'chunk')
  if (!chunk) throw new Error('building the console produced no script')
  return chunk.code
}

/**
 * Builds the owner's console beside the widget, into dist/admin: its own bundle, never one of the
 * widget's files or chunks (the widget's size budget does not see it), compressed with the rest
 * of dist/ by the precompress plugin. Its stylesheet is a plain file: the console's CSP allows
 * this service's stylesheets only, so no style is injected at run time.
 */
export function adminConsole(): Plugin {
  let files: Promise<Record<string, string>> | undefined
  return {
    name: 'flow-chat-admin-console',
    apply: 'build',
    async generateBundle(output) {
      if (output.format !== 'es') return
      files ??= (async () => ({
        'console.js': await bundleConsole(),
        'console.css': await readFile(join(ADMIN_DIR, 'console.css'), 'utf8'),
      }))()
      for (const [name, source] of Object.entries(await files)) {
        this.emitFile({ type: 'asset', fileName: `${CONSOLE_OUT_DIR}/${name}`, source })
      }
    },
  }
}
