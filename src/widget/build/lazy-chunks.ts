import { createHash } from 'node:crypto'
import { basename, dirname, extname, sep } from 'node:path'
import MagicString from 'magic-string'
import { build, type Plugin, type Rolldown } from 'vite'
import { compressAgain } from './second-pass.ts'

/**
 * Lazy chunks beside the core script, shared by its classic (IIFE) and module builds.
 *
 * Every `import('./…')` of a widget module in the core's code makes that module a chunk:
 * `flow-chat-<name>-<hash>.mjs`, an ES module the core loads from next to itself, by absolute URL:
 * the module build from `import.meta.url`, the classic script from its own `src` (a cross-origin
 * classic script's relative `import()` would resolve against `about:blank`). The content hash in
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

const BRIDGE_ID = '\0flow-chat-chunk-bridge'
/** A call the transform writes and renderChunk replaces: a chunk's URL, per output format. */
const URL_MARK = '__fcChunkUrl'
const URL_CALL = /__fcChunkUrl\(\s*"\.\/(flow-chat-[\w-]+\.mjs)"\s*\)/g
const CORE_PREFIX = 'fc-core:'
const PARAMETER = '__fcCore'

interface Chunk {
  /** File name beside the core script. */
  file: string
  code: string
}

interface Prepared {
  /** Chunk entry module id → its chunk. */
  chunks: Map<string, Chunk>
  /** The bridge module of the core builds. */
  bridge: string
}

/**
 * `element/launchers/index.ts` → `flow-chat-launchers-<hash>.mjs`; `content/purify.ts` →
 * `flow-chat-purify-<hash>.mjs`, the hash being the first 8 hex digits of the code's SHA-256.
 */
function chunkFile(id: string, code: string): string {
  const name = basename(id, extname(id))
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 8)
  return `flow-chat-${name === 'index' ? basename(dirname(id)) : name}-${hash}.mjs`
}

const widgetModule = (id: string, root: string) => id.startsWith(root) && !id.includes(`${sep}node_modules${sep}`)

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
      rolldownOptions: { output: { minify, comments: SHIPPED_COMMENTS }, plugins },
    },
  })) as Rolldown.RolldownOutput[]
  const chunk = output[0]?.output.find((item): item is Rolldown.OutputChunk => item.type === 'chunk')
  if (!chunk) throw new Error(`building ${entry} produced no script`)
  return chunk
}

/** Binding lists of `import{a as b,c}from"fc-core:3"` statements, rewritten as reads from the bridge. */
const IMPORT = /import\s*(?:\{([^}]*)\}|\*\s*as\s+([\w$]+)|([\w$]+))\s*from\s*"fc-core:(\d+)";?/g
const SIDE_EFFECT_IMPORT = /import\s*"fc-core:\d+";?/g
const EXPORT = /export\s*\{([^}]*)\};?\s*$/

/** What a chunk reads from one core module: the whole namespace, or bindings as local names. */
interface CoreRead {
  slot: number
  namespace?: string
  pairs: Array<[imported: string, local: string]>
}

interface ParsedChunk {
  body: string
  reads: CoreRead[]
  /** `name:local` pairs of the object the factory returns. */
  result: string
}

/**
 * Takes a chunk built with the core's modules external apart: its reads of those modules (recorded
 * in `needed`, per module), its body and its exports.
 */
function parseChunk(code: string, entry: string, needed: Map<number, Set<string>>): ParsedChunk {
  const reads: CoreRead[] = []
  let body = code.replace(IMPORT, (_statement, named: string | undefined, namespace: string | undefined, fallback: string | undefined, index: string) => {
    const slot = Number(index)
    const bindings = needed.get(slot) ?? new Set<string>()
    needed.set(slot, bindings)
    if (namespace) {
      bindings.add('*')
      reads.push({ slot, namespace, pairs: [] })
      return ''
    }
    const pairs = named
      ? named.split(',').map((part) => part.trim()).filter(Boolean).map((part) => part.split(/\s+as\s+/) as [string, string?])
      : [['default', fallback] as [string, string?]]
    for (const [imported] of pairs) bindings.add(imported)
    reads.push({ slot, pairs: pairs.map(([imported, local]) => [imported, local ?? imported]) })
    return ''
  })
  body = body.replace(SIDE_EFFECT_IMPORT, '')
  // Everything but the core's modules is bundled: an import left over would be a form not read above.
  if (body.includes(CORE_PREFIX) || /\bimport\(/.test(body)) throw new Error(`the chunk of ${entry} has an import this build cannot bridge`)
  const exported = EXPORT.exec(body)
  body = body.replace(EXPORT, '')
  const result = exported
    ? exported[1]!
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
        .map((part) => {
          const [local, name = local] = part.split(/\s+as\s+/)
          return `${name}:${local}`
        })
        .join(',')
    : ''
  return { body, reads, result }
}

/**
 * The bindings the bridge hands over for a module, in order (`*`: its namespace). Positions, not
 * names, reach the chunks: the names would be kilobytes of the core.
 */
const bridgeOrder = (needed: Map<number, Set<string>>, slot: number): string[] =>
  needed.get(slot)?.has('*') ? ['*'] : [...(needed.get(slot) ?? [])].sort()

/** A chunk as a factory of its exports, reading the core's modules from its parameter (see `bridgeModule`). */
function wrapChunk({ body, reads, result }: ParsedChunk, needed: Map<number, Set<string>>): string {
  const declarations = reads.map(({ slot, namespace, pairs }) => {
    const order = bridgeOrder(needed, slot)
    if (namespace) return `${namespace}=${PARAMETER}[${slot}]`
    if (order[0] === '*') return `{${pairs.map(([imported, local]) => (local !== imported ? `${imported}:${local}` : imported)).join(',')}}=${PARAMETER}[${slot}]`
    const positions: string[] = []
    for (const [imported, local] of pairs) positions[order.indexOf(imported)] = local
    return `[${Array.from(positions, (local) => local ?? '').join(',')}]=${PARAMETER}[${slot}]`
  })
  return `export default function(${PARAMETER}){const ${declarations.join(',') || '_=0'};${body};return{${result}}}\n`
}

/** The bridge: for each core module a chunk reads, exactly the bindings it reads (in `bridgeOrder`). */
function bridgeModule(modules: string[], needed: Map<number, Set<string>>): string {
  const imports: string[] = []
  const slots = modules.map((id, slot) => {
    const names = bridgeOrder(needed, slot)
    if (names.length === 0) return 'null'
    if (names[0] === '*') {
      imports.push(`import * as m${slot} from ${JSON.stringify(id)}`)
      return `m${slot}`
    }
    imports.push(`import { ${names.map((name) => `${name} as m${slot}_${name}`).join(', ')} } from ${JSON.stringify(id)}`)
    return `[${names.map((name) => `m${slot}_${name}`).join(', ')}]`
  })
  return `${imports.join('\n')}
// Read when a chunk loads, not when this module runs: some of these modules import this one.
const core = () => [${slots.join(', ')}]
const loaded = new Map()
// Where the classic script came from: only known while it first runs (null in a module, which
// passes its chunks' URLs made from import.meta.url instead).
const script = typeof document < 'u' ? document.currentScript : null
/**
 * A chunk's exports, made once per core; a failed load is forgotten, so the next need tries again.
 * \`file\`: the chunk's address from import.meta.url (the module build), or its name, beside the script.
 */
export function loadChunk(file) {
  const url = new URL(file, (script && script.src) || document.baseURI).href
  let chunk = loaded.get(url)
  if (!chunk) {
    chunk = import(url).then((module) => module.default(core()), (error) => {
      loaded.delete(url)
      throw error
    })
    loaded.set(url, chunk)
  }
  return chunk
}
`
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

    // 2. Each chunk, with the core's modules external, wrapped as a factory.
    const modules: string[] = []
    const needed = new Map<number, Set<string>>()
    const bridgeTo: Rolldown.Plugin = {
      name: 'flow-chat-chunk-bridge-imports',
      async resolveId(source, importer) {
        if (!importer) return null
        const resolved = await this.resolve(source, importer, { skipSelf: true })
        if (!resolved || !coreModules.has(resolved.id)) return null
        let slot = modules.indexOf(resolved.id)
        if (slot < 0) slot = modules.push(resolved.id) - 1
        return { id: `${CORE_PREFIX}${slot}`, external: true }
      },
    }
    const parsed = new Map<string, ParsedChunk>()
    for (const entry of [...entries].sort()) parsed.set(entry, parseChunk((await bundleOnce(entry, bridgeTo, options.plugins(), true)).code, entry, needed))
    // Slots were numbered as imports resolved, concurrently: renumbered by module id, so the same
    // sources always make the same bridge, the same module order and the same bytes.
    const sorted = [...modules].sort()
    const slotOf = (slot: number) => sorted.indexOf(modules[slot]!)
    const canonical = new Map([...needed].map(([slot, names]) => [slotOf(slot), names]))
    for (const chunk of parsed.values()) for (const read of chunk.reads) read.slot = slotOf(read.slot)
    // Wrapped once every chunk is read: the bridge's order of a module's bindings is then known.
    const chunks = new Map<string, Chunk>()
    for (const [entry, chunk] of parsed) {
      const code = (await compressAgain(wrapChunk(chunk, canonical), true)).code
      chunks.set(entry, { file: chunkFile(entry, code), code })
    }
    return { chunks, bridge: bridgeModule(sorted, canonical) }
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
      if (!widgetModule(id, options.root) || !code.includes('import(')) return null
      const { chunks } = await prepared!
      // Edited in place, with a source map: the module's stack traces and debugger lines stay its own.
      const out = new MagicString(code)
      for (const match of code.matchAll(DYNAMIC_IMPORT)) {
        const resolved = await this.resolve(match[2]!, id)
        const chunk = resolved && chunks.get(resolved.id)
        if (!chunk) continue
        // The chunk's address is written per output format when the core is rendered (renderChunk).
        out.overwrite(match.index, match.index + match[0].length, `__fcLoadChunk(${URL_MARK}(${JSON.stringify(`./${chunk.file}`)}))`)
      }
      if (!out.hasChanged()) return null
      out.prepend(`import { loadChunk as __fcLoadChunk } from ${JSON.stringify(BRIDGE_ID)};\n`)
      return { code: out.toString(), map: out.generateMap({ source: id, includeContent: true, hires: 'boundary' }) }
    },
    renderChunk(code, _chunk, output) {
      if (!code.includes(URL_MARK)) return null
      // The module build: `new URL('./…', import.meta.url)`, which is also what bundlers look for
      // to copy a file an app imports (Vite, webpack), so an app bundling the module build gets
      // the chunks too. The classic script has no import.meta: the bridge resolves the file
      // against the script's own address.
      const out = new MagicString(code)
      for (const match of code.matchAll(URL_CALL)) {
        const file = JSON.stringify(match[1])
        const url = output.format === 'es' ? `new URL(${JSON.stringify(`./${match[1]}`)}, import.meta.url).href` : file
        out.overwrite(match.index, match.index + match[0].length, url)
      }
      return { code: out.toString(), map: out.generateMap({ hires: 'boundary' }) }
    },
    async generateBundle(output) {
      if (output.format !== 'es') return
      for (const chunk of (await prepared!).chunks.values()) this.emitFile({ type: 'asset', fileName: chunk.file, source: chunk.code })
    },
  }
}
