import { createHash } from 'node:crypto'
import { basename, dirname, extname, sep } from 'node:path'
import MagicString from 'magic-string'
import { build, type Plugin, type Rolldown } from 'vite'
import { BRIDGE_ID, bridgeModule, type Chunk, CORE_PREFIX, LOAD, type ParsedChunk, IMPORT_CALL, IMPORT_MARK, parseChunk, wrapChunk } from './chunk-bridge.ts'
import { compressAgain } from './second-pass.ts'

/**
 * Lazy chunks beside the core script, shared by its classic (IIFE) and module builds.
 *
 * Every `import('./…')` of a widget module (in the core's code or in a chunk's) makes that module a chunk:
 * `flow-chat-<name>-<hash>.mjs`, an ES module the core loads from next to itself: the module build
 * by a relative `import('./…')` (which a bundler bundling it splits like any of the app's own), the
 * classic script by absolute URL from its own `src` (a cross-origin classic script's relative
 * `import()` would resolve against `about:blank`). The content hash in
 * the name lets servers cache a chunk for good. A chunk must share the core's module instances
 * (Preact, its hooks, signals, the chat's context), and a classic script has no module to import
 * from, so a chunk's imports of core modules become a parameter instead: it is built with those
 * modules external, then wrapped as `export default function (core) { … }`, and the core calls it
 * with a "bridge" holding exactly the bindings its chunks import (generated per build, so the
 * core keeps nothing a chunk does not use).
 */

/**
 * Comments the shipped files keep: licences only. Pure annotations and JSDoc served the build's
 * tree-shaking, not the browser (they were over 4 KB of the core).
 */
export const SHIPPED_COMMENTS = { legal: true, annotation: false, jsdoc: false }

/**
 * JSX as Preact's own `h` and `Fragment` (the classic transform), imported into each module under
 * names no source uses: the automatic runtime's `jsx()` would be one more module in the core
 * (about 70 B gzip) doing what `h` does. TypeScript only checks JSX (tsconfig's `jsx: preserve`,
 * with preact's JSX types), so no file imports them itself. Every build of widget code (the
 * core's, each chunk's, the tests') uses these options.
 */
export const JSX_OPTIONS = {
  jsx: { runtime: 'classic', pragma: '__h', pragmaFrag: '__Fragment' },
  jsxInject: `import { h as __h, Fragment as __Fragment } from 'preact'`,
} as const

interface Prepared {
  /** Chunk entry module id → its chunk. */
  chunks: Map<string, Chunk>
  /** The bridge module of the core builds. */
  bridge: string
}

/** `element/launchers/index.ts` → `launchers`; `content/purify.ts` → `purify`. */
function chunkName(id: string): string {
  const name = basename(id, extname(id))
  return name === 'index' ? basename(dirname(id)) : name
}

/** `flow-chat-<name>-<hash>.mjs`, the hash being the first 8 hex digits of the code's SHA-256. */
const chunkFile = (name: string, code: string) => `flow-chat-${name}-${createHash('sha256').update(code).digest('hex').slice(0, 8)}.mjs`

const widgetModule = (id: string, root: string) => id.startsWith(root) && !id.includes(`${sep}node_modules${sep}`)

/**
 * Rewrites a widget module's dynamic imports of chunk modules (`isChunk`) as loads of their chunk
 * by name through the bridge, with a source map (a module's stack traces and debugger lines stay
 * its own). Null when the module has none.
 */
async function rewriteImports(
  code: string,
  id: string,
  resolve: (specifier: string, importer: string) => Promise<{ id: string } | null>,
  isChunk: (id: string) => boolean,
): Promise<{ code: string; map: ReturnType<MagicString['generateMap']> } | null> {
  if (!code.includes('import(')) return null
  const out = new MagicString(code)
  for (const match of code.matchAll(DYNAMIC_IMPORT)) {
    const resolved = await resolve(match[2]!, id)
    if (!resolved || !isChunk(resolved.id)) continue
    out.overwrite(match.index, match.index + match[0].length, `${LOAD}(${JSON.stringify(chunkName(resolved.id))})`)
  }
  if (!out.hasChanged()) return null
  out.prepend(`import { loadChunk as ${LOAD} } from ${JSON.stringify(BRIDGE_ID)};\n`)
  return { code: out.toString(), map: out.generateMap({ source: id, includeContent: true, hires: 'boundary' }) }
}

/** One ES build of `entry`; `first` resolves imports before Vite's own resolver does. */
async function bundleOnce(entry: string, first: Rolldown.Plugin, plugins: Rolldown.Plugin[], minify: boolean): Promise<Rolldown.OutputChunk> {
  const output = (await build({
    configFile: false,
    logLevel: 'warn',
    plugins: [{ ...first, enforce: 'pre' }],
    oxc: JSX_OPTIONS,
    build: {
      write: false,
      target: 'es2022',
      minify,
      lib: { entry, formats: ['es'], fileName: () => 'out.mjs' },
      rolldownOptions: { output: { minify, comments: SHIPPED_COMMENTS }, plugins, treeshake: { manualPureFunctions: ['z'] } },
    },
  })) as Rolldown.RolldownOutput[]
  const chunk = output[0]?.output.find((item): item is Rolldown.OutputChunk => item.type === 'chunk')
  if (!chunk) throw new Error(`building ${entry} produced no script`)
  return chunk
}

/** Dynamic imports of a relative path in source code (a string literal, single or double quotes). */
const DYNAMIC_IMPORT = /\bimport\(\s*(['"])(\.{1,2}\/[^'"]+)\1\s*\)/g

/**
 * The plugin of the core builds (see the top of this file). `plugins` are the transforms every
 * build of widget code needs (the private zod config).
 */
export function lazyChunks(options: { entry: string; root: string; plugins: () => Rolldown.Plugin[] }): Plugin {
  let prepared: Promise<Prepared> | undefined

  async function prepare(): Promise<Prepared> {
    // 1. The core's own modules: everything the entry reaches, dynamic imports aside.
    const entries = new Set<string>()
    // Every module of the core's graph, those re-exporting others (a package's index) included.
    const coreModules = new Set<string>()
    const discover: Rolldown.Plugin = {
      name: 'flow-chat-chunk-discovery',
      buildEnd() {
        // Not the chunks themselves (external here): one chunk importing from another bundles
        // what it uses, instead of pulling the other chunk's module into the core.
        for (const id of this.getModuleIds()) if (this.getModuleInfo(id)?.code != null) coreModules.add(id)
      },
      async resolveDynamicImport(specifier, importer) {
        if (typeof specifier !== 'string' || !importer) return null
        const resolved = await this.resolve(specifier, importer)
        if (!resolved || !widgetModule(resolved.id, options.root)) return null
        entries.add(resolved.id)
        return { id: resolved.id, external: true }
      },
    }
    await bundleOnce(options.entry, discover, options.plugins(), false)

    // 2. What each chunk would bundle, and the chunks chunks load. A package two chunks would both
    // bundle (Preact's hooks and signals' renderer: each must be one instance on a page, hooked
    // into the one Preact) is the core's instead, shared through the bridge. The widget's own
    // modules are bundled by each chunk that uses them: none of those two chunks share keeps state.
    const isChunk = (id: string) => widgetModule(id, options.root) && !coreModules.has(id)
    const members = new Map<string, Set<string>>()
    for (const pending = [...entries].sort(); pending.length > 0; ) {
      const entry = pending.shift()!
      const found = new Set<string>()
      const membership: Rolldown.Plugin = {
        name: 'flow-chat-chunk-membership',
        async resolveId(source, importer) {
          if (!importer) return null
          const resolved = await this.resolve(source, importer, { skipSelf: true })
          return resolved && coreModules.has(resolved.id) ? { id: resolved.id, external: true } : null
        },
        async resolveDynamicImport(specifier, importer) {
          if (typeof specifier !== 'string' || !importer) return null
          const resolved = await this.resolve(specifier, importer)
          if (!resolved || !isChunk(resolved.id)) return null
          if (!entries.has(resolved.id)) {
            entries.add(resolved.id)
            pending.push(resolved.id)
          }
          return { id: resolved.id, external: true }
        },
        buildEnd() {
          for (const id of this.getModuleIds()) if (this.getModuleInfo(id)?.code != null) found.add(id)
        },
      }
      await bundleOnce(entry, membership, options.plugins(), false)
      members.set(entry, found)
    }
    const bundledBy = new Map<string, number>()
    for (const found of members.values()) for (const id of found) bundledBy.set(id, (bundledBy.get(id) ?? 0) + 1)
    for (const [id, count] of bundledBy) if (count > 1 && id.includes(`${sep}node_modules${sep}`)) coreModules.add(id)

    // 3. Each chunk, with the core's modules external, wrapped as a factory.
    const modules: string[] = []
    const needed = new Map<number, Set<string>>()
    const bridgeTo: Rolldown.Plugin = {
      name: 'flow-chat-chunk-bridge-imports',
      async resolveId(source, importer) {
        if (!importer) return null
        const id = source === BRIDGE_ID ? BRIDGE_ID : (await this.resolve(source, importer, { skipSelf: true }))?.id
        if (!id || (id !== BRIDGE_ID && !coreModules.has(id))) return null
        let slot = modules.indexOf(id)
        if (slot < 0) slot = modules.push(id) - 1
        return { id: `${CORE_PREFIX}${slot}`, external: true }
      },
    }
    const queue = [...entries].sort()
    const loads: Rolldown.Plugin = {
      name: 'flow-chat-chunk-loads',
      async transform(code, id) {
        if (!widgetModule(id, options.root)) return null
        return rewriteImports(code, id, (specifier, importer) => this.resolve(specifier, importer), (chunk) => entries.has(chunk))
      },
    }
    const parsed = new Map<string, ParsedChunk>()
    while (queue.length > 0) {
      const entry = queue.shift()!
      parsed.set(entry, parseChunk((await bundleOnce(entry, bridgeTo, [...options.plugins(), loads], true)).code, entry, needed))
    }
    const names = new Map<string, string>()
    for (const entry of parsed.keys()) {
      const other = names.get(chunkName(entry))
      if (other) throw new Error(`two chunks would be named ${chunkName(entry)}: ${other} and ${entry}`)
      names.set(chunkName(entry), entry)
    }
    // Slots were numbered as imports resolved, concurrently: renumbered by module id, so the same
    // sources always make the same bridge, the same module order and the same bytes.
    const sorted = [...modules].sort()
    const slotOf = (slot: number) => sorted.indexOf(modules[slot]!)
    const canonical = new Map([...needed].map(([slot, names]) => [slotOf(slot), names]))
    for (const chunk of parsed.values()) for (const read of chunk.reads) read.slot = slotOf(read.slot)
    // Wrapped once every chunk is read: the bridge's order of a module's bindings is then known.
    const chunks = new Map<string, Chunk>()
    for (const entry of [...parsed.keys()].sort()) {
      const code = (await compressAgain(wrapChunk(parsed.get(entry)!, canonical), true)).code
      chunks.set(entry, { name: chunkName(entry), file: chunkFile(chunkName(entry), code), code })
    }
    return { chunks, bridge: bridgeModule(sorted, canonical, chunks.values()) }
  }

  return {
    name: 'flow-chat-lazy-chunks',
    async buildStart() {
      prepared ??= prepare()
      await prepared
    },
    resolveId(source) {
      return source === BRIDGE_ID ? BRIDGE_ID : null
    },
    async load(id) {
      return id === BRIDGE_ID ? (await prepared!).bridge : null
    },
    async transform(code, id) {
      if (!widgetModule(id, options.root)) return null
      const { chunks } = await prepared!
      return rewriteImports(code, id, (specifier, importer) => this.resolve(specifier, importer), (chunk) => chunks.has(chunk))
    },
    renderChunk(code, _chunk, output) {
      if (!code.includes(IMPORT_MARK)) return null
      // The bridge's table of chunks. The module build: `import('./flow-chat-….mjs')`, a dynamic
      // import of a file beside it, which every bundler (Vite, webpack, esbuild, Rollup) splits
      // into a chunk of the app's own build: an app bundling the module build gets every chunk as
      // a file (never inlined as a data: URL, which a CSP without data: refuses). The classic
      // script has no module address: the bridge imports the file beside the script's own.
      const out = new MagicString(code)
      for (const match of code.matchAll(IMPORT_CALL)) {
        const file = JSON.stringify(`./${match[1]}`)
        out.overwrite(match.index, match.index + match[0].length, output.format === 'es' ? `import(${file})` : `${match[2]}(${file})`)
      }
      return { code: out.toString(), map: out.generateMap({ hires: 'boundary' }) }
    },
    async generateBundle(output) {
      if (output.format !== 'es') return
      for (const chunk of (await prepared!).chunks.values()) this.emitFile({ type: 'asset', fileName: chunk.file, source: chunk.code })
    },
  }
}
