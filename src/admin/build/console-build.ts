import { readdir, readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { build, type Plugin, type Rolldown } from 'vite'
import { TEMPLATES_FILE, type Template, type TemplatesFile } from '../templates/templates.ts'

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

/** The templates' flow exports as one file (templates.ts), by name; a file without a name or description fails the build. */
async function bundleTemplates(): Promise<string> {
  const dir = join(ADMIN_DIR, 'templates')
  const files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort()
  const templates = await Promise.all(
    files.map(async (file): Promise<Template> => {
      const flow = JSON.parse(await readFile(join(dir, file), 'utf8')) as Template['flow'] & {
        name?: unknown
        settings?: { metadata?: { description?: unknown } }
      }
      const description = flow.settings?.metadata?.description
      if (typeof flow.name !== 'string' || typeof description !== 'string') {
        throw new Error(`the template ${file} needs a name and settings.metadata.description`)
      }
      return { id: basename(file, '.json'), name: flow.name, description, flow }
    }),
  )
  return JSON.stringify({ templates } satisfies TemplatesFile)
}

/**
 * Builds the owner's console beside the widget, into dist/admin: its own bundle, never one of the
 * widget's files or chunks (the widget's size budget does not see it), with its templates,
 * compressed with the rest of dist/ by the precompress plugin. Its stylesheet is a plain file: the console's CSP allows
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
        [TEMPLATES_FILE]: await bundleTemplates(),
      }))()
      for (const [name, source] of Object.entries(await files)) {
        this.emitFile({ type: 'asset', fileName: `${CONSOLE_OUT_DIR}/${name}`, source })
      }
    },
  }
}
