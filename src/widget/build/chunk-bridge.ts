/**
 * How a lazy chunk and the core meet (lazy-chunks.ts builds both): a chunk is built with the
 * core's modules external, taken apart here (its reads of those modules, its body, its exports)
 * and wrapped as a factory reading them from a parameter; the core gets a "bridge" module holding
 * exactly the bindings its chunks read, by position, and the table that loads chunks by name.
 */

export const BRIDGE_ID = '\0flow-chat-chunk-bridge'
/**
 * A call the bridge holds and renderChunk replaces, per output format: a chunk's import, by its
 * file name, and the bridge's function importing it beside the classic script.
 */
export const IMPORT_MARK = '__fcChunkImport'
export const IMPORT_CALL = /__fcChunkImport\(\s*"\.\/(flow-chat-[\w-]+\.mjs)"\s*,\s*([\w$]+)\s*\)/g
/** What a dynamic import of a chunk's module becomes, in the core and in chunks alike: its chunk loaded by name. */
export const LOAD = '__fcLoadChunk'
export const CORE_PREFIX = 'fc-core:'
const PARAMETER = '__fcCore'

export interface Chunk {
  /** Its name in the bridge's table (`launchers`, `theme-vars`). */
  name: string
  /** File name beside the core script. */
  file: string
  code: string
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

export interface ParsedChunk {
  body: string
  reads: CoreRead[]
  /** `name:local` pairs of the object the factory returns. */
  result: string
}

/**
 * Takes a chunk built with the core's modules external apart: its reads of those modules (recorded
 * in `needed`, per module), its body and its exports.
 */
export function parseChunk(code: string, entry: string, needed: Map<number, Set<string>>): ParsedChunk {
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
export function wrapChunk({ body, reads, result }: ParsedChunk, needed: Map<number, Set<string>>): string {
  const declarations = reads.map(({ slot, namespace, pairs }) => {
    const order = bridgeOrder(needed, slot)
    if (namespace) return `${namespace}=${PARAMETER}[${slot}]`
    if (order[0] === '*') return `{${pairs.map(([imported, local]) => (local !== imported ? `${imported}:${local}` : imported)).join(',')}}=${PARAMETER}[${slot}]`
    const positions: string[] = []
    for (const [imported, local] of pairs) positions[order.indexOf(imported)] = local
    return `[${Array.from(positions, (local) => local ?? '').join(',')}]=${PARAMETER}[${slot}]`
  })
  const bindings = declarations.length > 0 ? `const ${declarations.join(',')};` : ''
  return `export default function(${PARAMETER}){${bindings}${body};return{${result}}}\n`
}

/**
 * The bridge: for each core module a chunk reads, exactly the bindings it reads (in `bridgeOrder`;
 * a chunk loading another chunk reads the bridge's own `loadChunk`), and the table of chunks by name.
 */
export function bridgeModule(modules: string[], needed: Map<number, Set<string>>, chunks: Iterable<Chunk>): string {
  const imports: string[] = []
  const slots = modules.map((id, slot) => {
    const names = bridgeOrder(needed, slot)
    if (names.length === 0) return 'null'
    if (id === BRIDGE_ID) return '[loadChunk]'
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
// Where the classic script came from: only known while it first runs (null in a module).
const script = typeof document < 'u' ? document.currentScript : null
// The classic script's way to a chunk: beside its own address (its relative import() would
// resolve against the page, or about:blank when the script is cross-origin).
const beside = (file) => import(new URL(file, (script && script.src) || document.baseURI).href)
// Each chunk's import, by name: written per output format when the core is rendered (renderChunk).
const files = {${[...chunks].map((chunk) => `${JSON.stringify(chunk.name)}: () => ${IMPORT_MARK}(${JSON.stringify(`./${chunk.file}`)}, beside)`).join(', ')}}
/** A chunk's exports, made once per core; a failed load is forgotten, so the next need tries again. */
export function loadChunk(name) {
  let chunk = loaded.get(name)
  if (!chunk) {
    chunk = files[name]().then((module) => module.default(core()), (error) => {
      loaded.delete(name)
      throw error
    })
    loaded.set(name, chunk)
  }
  return chunk
}
`
}
