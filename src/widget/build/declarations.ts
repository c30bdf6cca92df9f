import { existsSync } from 'node:fs'
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import ts from 'typescript'
import type { Plugin } from 'vite'
import { vendorTypes } from './vendored-types.ts'

/**
 * A relative specifier of a declaration file as Node's own resolution needs it (`node16`,
 * `nodenext`): the declaration beside it by its `.js` name, or a folder's `index.js`. tsc writes
 * them as the sources do, extensionless, which only a bundler's resolution accepts.
 */
function withExtension(fromFile: string, specifier: string): string {
  if (!specifier.startsWith('.') || /\.(?:m?js|json)$/.test(specifier)) return specifier
  const target = resolve(dirname(fromFile), specifier)
  if (existsSync(`${target}.d.ts`)) return `${specifier}.js`
  if (existsSync(join(target, 'index.d.ts'))) return `${specifier.replace(/\/$/, '')}/index.js`
  throw new Error(`${fromFile}: no declaration for ${specifier}`)
}

/** `from '…'`, `import '…'` and `import('…')` in a declaration file. */
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.[^'"]*)\2/g

/** Rewrites every relative specifier of the declarations under `dir`, in place. */
export async function addDeclarationExtensions(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue
    const file = join(entry.parentPath, entry.name)
    const text = await readFile(file, 'utf8')
    const rewritten = text.replace(SPECIFIER, (_all, before: string, quote: string, specifier: string) => `${before}${quote}${withExtension(file, specifier)}${quote}`)
    if (rewritten !== text) await writeFile(file, rewritten)
  }
}

/**
 * The package's TypeScript declarations (dist/types, from tsconfig.types.json: the library and the
 * opt-in JSX tags), written during `vite build` so every build ships them, with specifiers that
 * resolve the same under every `moduleResolution` a consumer may use, and the declarations of the
 * bundled packages they name (vendored-types.ts).
 */
export function declarations(root: string): Plugin {
  return {
    name: 'flow-chat-declarations',
    apply: 'build',
    async closeBundle() {
      const configFile = resolve(root, 'tsconfig.types.json')
      const { config } = ts.readConfigFile(configFile, ts.sys.readFile)
      const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configFile)
      const outDir = parsed.options.outDir!
      await rm(outDir, { recursive: true, force: true })
      const emitted = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options }).emit()
      if (emitted.emitSkipped || emitted.diagnostics.length > 0) {
        throw new Error(`declarations: ${ts.formatDiagnostics(emitted.diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' })}`)
      }
      await addDeclarationExtensions(outDir)
      await vendorTypes(outDir)
    },
  }
}
