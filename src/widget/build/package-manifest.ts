import { copyFile, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Plugin } from 'vite'

/** What a package manifest says about the widget's entry points (the repository's own declares them). */
interface WidgetManifest {
  name: string
  version: string
  keywords?: string[]
  license?: string
  type?: string
  types: string
  module?: string
  exports: Record<string, unknown>
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, unknown>
}

/** `./dist/flow-chat.mjs` → `./flow-chat.mjs`: the package is the dist folder itself. */
function inPackage(path: string): string {
  if (path === './package.json') return path
  if (!path.startsWith('./dist/')) throw new Error(`package.json: ${path} is not in dist/, so the widget's package cannot ship it`)
  return `./${path.slice('./dist/'.length)}`
}

/** Every path of an `exports` map (nested conditions included) moved into the package. */
function movePaths(value: unknown): unknown {
  if (typeof value === 'string') return inPackage(value)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, movePaths(inner)]))
  return value
}

/**
 * The widget's npm package manifest, from the repository's: its name, version, entry points and
 * optional React types peer, and no dependencies. The build bundles everything the widget runs
 * (Preact, signals, zod, DOMPurify); the repository's `dependencies` are the service's, which an
 * app embedding the chat never installs.
 */
export function widgetManifest(repository: WidgetManifest): Record<string, unknown> {
  const { name, version, keywords, license, type, types, module, exports, peerDependencies, peerDependenciesMeta } = repository
  return {
    name,
    version,
    // The repository's own says "and the flow service": the package is the widget alone.
    description: 'An embeddable chat widget for chat flows: a script tag, custom elements and a JavaScript API, with no dependencies.',
    keywords,
    license,
    type,
    types: inPackage(types),
    module: module && inPackage(module),
    exports: movePaths(exports),
    // The console (admin/) is the service's; the .br and .gz copies are for the service to send.
    files: ['*.js', '*.mjs', '*.map', 'sandbox/', 'types/', '!**/*.br', '!**/*.gz'],
    peerDependencies,
    peerDependenciesMeta,
  }
}

/**
 * The plugin: dist/ becomes the widget's package (`npm pack ./dist`, `npm publish ./dist`), with
 * the manifest above and the README beside it.
 */
export function packageManifest(root: string, outDir: string): Plugin {
  return {
    name: 'flow-chat-package-manifest',
    apply: 'build',
    async closeBundle() {
      const repository = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as WidgetManifest
      await writeFile(join(outDir, 'package.json'), `${JSON.stringify(widgetManifest(repository), null, 2)}\n`)
      await copyFile(join(root, 'README.md'), join(outDir, 'README.md'))
    },
  }
}
