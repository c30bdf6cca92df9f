import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The import rules of docs/contributors/architecture.md, checked on the sources: a widget folder imports
 * only leftwards in `protocol ← chat ← ui ← element` (then `embed`, `jsx` and the two entries),
 * with `transport`, `content`, `sandbox` and `i18n` beside them, importing only the contract;
 * `chat` is rooms by concern, each importing only those before it (`events ← state ← actions ←
 * memory ← conversation`), and the others enter it by its door (chat/index.ts); no two widget
 * modules need each other, not even for types (import-cycles.test.ts); the
 * service's store and engine never reach up into the routes and services, nor the store into the
 * engine (it keeps what the engine hands it as plain data). The service imports one way:
 * entries → routes → services → engine and integrations side by side → http → store, each only
 * below itself; the engine names no integration, and the integrations read the engine's ports
 * (engine/core/ports.ts) as types only; its configuration is read as types below the entries;
 * the engine's core imports no block and no block the walker. The console imports the
 * contract only, as every other client of the API does. Import cycles: import-cycles.test.ts.
 */
const SRC = resolve(import.meta.dirname, '../../src')

const BESIDE = ['transport', 'content', 'sandbox', 'i18n']
/**
 * The rooms of `chat`, each importing only those before it: what the page and the visitor are told
 * (events, failures); what a conversation holds (its stage, state, transcript); the client actions
 * and their runners; remembering a conversation across reloads; the conversation itself (its
 * lifecycle, turns, player and commands).
 */
const CHAT_ROOMS = ['chat/events', 'chat/state', 'chat/actions', 'chat/memory', 'chat/conversation']
const roomsBefore = (room: string) => CHAT_ROOMS.slice(0, CHAT_ROOMS.indexOf(room))
/** What each part of the widget may import (besides itself). */
const WIDGET_RULES: Record<string, readonly string[]> = {
  protocol: [],
  transport: ['protocol'],
  content: ['protocol'],
  sandbox: ['protocol'],
  // The widget's words (the English table, the translations) and the chat's language.
  i18n: ['protocol'],
  ...Object.fromEntries(CHAT_ROOMS.map((room) => [room, ['protocol', ...roomsBefore(room), ...BESIDE]])),
  // chat/index.ts, the door the other parts import the chat by.
  chat: ['protocol', ...CHAT_ROOMS, ...BESIDE],
  ui: ['protocol', 'chat', ...BESIDE],
  // The sandbox's script runner is a chunk's (element/scripts.ts): it takes the runner's maker from its room.
  element: ['protocol', 'chat', 'chat/actions', 'ui', ...BESIDE],
  embed: ['protocol', 'chat', 'ui', 'element', ...BESIDE],
  // The opt-in JSX entries: the library (entry) plus tag types.
  jsx: ['protocol', 'chat', 'ui', 'element', 'embed', 'entry', ...BESIDE],
  // Node code run by vite.config.ts: builds the sandbox document and the lazy chunks from the sources.
  build: ['protocol'],
  // index.ts and bundle.ts: the library's entries, above everything.
  entry: ['protocol', 'chat', 'ui', 'element', 'embed', 'jsx', ...BESIDE],
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : []
  })
}

/** Every module specifier a file imports, re-exports or loads dynamically. */
function importsOf(file: string): string[] {
  const code = readFileSync(file, 'utf8')
  const found = [
    ...code.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm),
    ...code.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
    ...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ]
  return found.map((match) => match[1]!)
}

const isDirectory = (path: string) => existsSync(path) && statSync(path).isDirectory()

/** `protocol`, `service/…` or the widget part (`chat`, a room like `chat/state`, `entry`, …) a source path belongs to. */
function partOf(path: string): string {
  const [top, second, third] = relative(SRC, path).split(sep)
  if (top === 'protocol') return 'protocol'
  if (top === 'service') return `service/${second}`
  if (top === 'widget' && second === 'chat' && third && isDirectory(join(SRC, 'widget/chat', third))) return `chat/${third}`
  if (top === 'widget') {
    return isDirectory(join(SRC, 'widget', second ?? '')) ? second! : 'entry'
  }
  return top ?? ''
}

interface Edge {
  from: string
  to: string
  file: string
  specifier: string
}

function edges(root: string): Edge[] {
  return sourceFiles(root).flatMap((file) =>
    importsOf(file)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => ({ from: partOf(file), to: partOf(resolve(dirname(file), specifier)), file: relative(SRC, file), specifier })),
  )
}

const describeEdge = (edge: Edge) => `${edge.file} imports ${edge.specifier} (${edge.from} → ${edge.to})`

describe('layering', () => {
  it('widget folders import only leftwards, with transport, content and sandbox beside them', () => {
    const wrong = [...edges(join(SRC, 'widget')), ...edges(join(SRC, 'protocol'))]
      .filter((edge) => edge.from !== edge.to)
      .filter((edge) => !(WIDGET_RULES[edge.from] ?? []).includes(edge.to))
    expect(wrong.map(describeEdge)).toEqual([])
  })

  it('knows every widget folder, and every room of chat', () => {
    const folders = (path: string) => readdirSync(join(SRC, path), { withFileTypes: true }).filter((entry) => entry.isDirectory())
    expect(folders('widget').map((folder) => folder.name).filter((name) => !(name in WIDGET_RULES))).toEqual([])
    expect(folders('widget/chat').map((folder) => `chat/${folder.name}`)).toEqual([...CHAT_ROOMS].sort())
    // Nothing but the door lies in chat itself.
    const loose = readdirSync(join(SRC, 'widget/chat'), { withFileTypes: true }).filter((entry) => entry.isFile())
    expect(loose.map((file) => file.name)).toEqual(['index.ts'])
  })

  it("widget code takes the contract's modules one by one, never every schema through protocol/index", () => {
    const barrel = sourceFiles(join(SRC, 'widget')).filter((file) =>
      /^\s*(?:import|export)\s+(?!type\b)[^'"]*from\s*['"][./]*protocol\/index['"]/m.test(readFileSync(file, 'utf8')),
    )
    expect(barrel.map((file) => relative(SRC, file))).toEqual([])
  })

  it('only transport calls fetch in the widget', () => {
    const callers = sourceFiles(join(SRC, 'widget')).filter(
      (file) => partOf(file) !== 'transport' && /(?<![\w.$'"])fetch\s*\(/.test(readFileSync(file, 'utf8')),
    )
    expect(callers.map((file) => relative(SRC, file))).toEqual([])
  })

  it('the service never imports the widget, and the widget never the service', () => {
    const widget = Object.keys(WIDGET_RULES).filter((part) => part !== 'protocol')
    const crossing = [...edges(join(SRC, 'service')), ...edges(join(SRC, 'widget'))].filter((edge) =>
      edge.from.startsWith('service') ? widget.includes(edge.to) : edge.to.startsWith('service'),
    )
    expect(crossing.map(describeEdge)).toEqual([])
  })

  it('the console (src/admin) is its own bundle: it imports the contract and nothing else of ours, and nothing imports it', () => {
    const crossing = [...edges(join(SRC, 'admin')), ...edges(join(SRC, 'service')), ...edges(join(SRC, 'widget'))].filter(
      (edge) => (edge.from === 'admin') !== (edge.to === 'admin') && !(edge.from === 'admin' && edge.to === 'protocol'),
    )
    expect(crossing.map(describeEdge)).toEqual([])
  })

  it("the console takes the contract's modules one by one, as the widget does, never every schema through protocol/index", () => {
    const barrel = edges(join(SRC, 'admin')).filter((edge) => edge.to === 'protocol' && /protocol(\/index)?$/.test(edge.specifier))
    expect(barrel.map(describeEdge)).toEqual([])
  })

  it("the service's store and engine never import the routes or services above them, nor the store the engine", () => {
    const above = ['service/routes', 'service/http', 'service/chat', 'service/flows', 'service/share', 'service/cli']
    const wrong = edges(join(SRC, 'service')).filter(
      (edge) =>
        ((edge.from === 'service/store' || edge.from === 'service/engine') && above.includes(edge.to)) ||
        (edge.from === 'service/store' && edge.to === 'service/engine') ||
        (edge.from === 'service/engine' && edge.to === 'service/store'),
    )
    expect(wrong.map(describeEdge)).toEqual([])
  })
  it('the service imports only downwards: entries, routes, services, engine and integrations, http, store', () => {
    const wrong = serviceEdges()
      .filter((edge) => edge.from !== edge.to)
      .filter((edge) => !(edge.to === 'config' && edge.typeOnly))
      .filter((edge) => !(SERVICE_RULES[edge.from] ?? []).includes(edge.to))
    expect(wrong.map((edge) => `${edge.file} imports ${edge.specifier} (${edge.from} → ${edge.to})`)).toEqual([])
  })

  it("the engine names no integration; the integrations implement the engine's ports and read them as types only", () => {
    const wrong = serviceEdges().filter(
      (edge) => (edge.from === 'engine' && edge.to === 'integrations') || (edge.from === 'integrations' && edge.to === 'ports' && !edge.typeOnly),
    )
    expect(wrong.map((edge) => `${edge.file} imports ${edge.specifier}`)).toEqual([])
  })

  it("rules on visitors' requests in one place: only the visitor gate applies the chat's origin rule", () => {
    const root = join(SRC, 'service')
    const gates = sourceFiles(root)
      .filter((file) => /\bapplyChatOrigin\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file).split(sep).join('/'))
    expect(gates).toEqual(['http/cors.ts', 'routes/chat-gate.ts'])
  })

  it('knows every folder and top-level module of the service', () => {
    const entries = readdirSync(join(SRC, 'service'), { withFileTypes: true }).filter((entry) => entry.isDirectory() || /\.ts$/.test(entry.name))
    expect(entries.map((entry) => entry.name).filter((name) => !(name in SERVICE_PARTS))).toEqual([])
  })

  it("the engine's core imports no block and nothing above it; no block imports the walker; the sandbox knows no flow", () => {
    const ENGINE = join(SRC, 'service/engine')
    const inEngine = (path: string) => relative(ENGINE, path).split(sep)
    const wrong = serviceEdges().filter((edge) => {
      const [fromFloor] = inEngine(edge.fromPath)
      const to = inEngine(edge.toPath)
      if (edge.from !== 'engine' || edge.to !== 'engine') return false
      if (fromFloor === 'core') return to[0] !== 'core' && to[0] !== 'sandbox'
      if (fromFloor === 'blocks') return to.join('/') === 'core/walker.ts' || !['core', 'blocks', 'sandbox'].includes(to[0]!)
      if (fromFloor === 'sandbox') return to[0] !== 'sandbox'
      return false
    })
    expect(wrong.map((edge) => `${edge.file} imports ${edge.specifier}`)).toEqual([])
  })
})

/** Modules that stand apart from their folder. */
const SERVICE_MODULE_PARTS: Record<string, string> = {
  // What a step calls outside the engine: defined by the engine, implemented by the integrations.
  'engine/core/ports.ts': 'ports',
}

/** Where each folder and top-level module of src/service stands. */
const SERVICE_PARTS: Record<string, string> = {
  'main.ts': 'entry',
  'cluster.ts': 'entry',
  'app.ts': 'entry',
  'env-tokens.ts': 'entry',
  cli: 'entry',
  bench: 'entry',
  build: 'entry',
  'config.ts': 'config',
  'env-reader.ts': 'config',
  routes: 'routes',
  'context.ts': 'routes',
  chat: 'services',
  flows: 'services',
  'flow-tests': 'services',
  share: 'services',
  widget: 'services',
  results: 'services',
  privacy: 'services',
  tokens: 'services',
  webhooks: 'services',
  identity: 'services',
  'qr-codes': 'services',
  engine: 'engine',
  'integrations.ts': 'integrations',
  ai: 'integrations',
  outbound: 'integrations',
  mail: 'integrations',
  credentials: 'integrations',
  uploads: 'integrations',
  http: 'http',
  store: 'store',
  'ids.ts': 'base',
  'service-files.ts': 'base',
  // The log, the request context and the metrics: every layer writes to them, they import nothing above.
  observability: 'base',
}

/** What each part of the service may import (besides itself); anything may read `config` as types. */
const SERVICE_RULES: Record<string, readonly string[]> = {
  base: [],
  ports: [],
  store: ['base'],
  http: ['store', 'base'],
  // The clients a step calls (AI providers, outbound HTTP, mail, credentials), implementing the engine's ports.
  integrations: ['ports', 'http', 'store', 'base'],
  engine: ['ports', 'base'],
  services: ['engine', 'ports', 'integrations', 'http', 'store', 'base'],
  routes: ['services', 'ports', 'integrations', 'http', 'store', 'base'],
  // Reads the environment, with the defaults of the parts it configures.
  config: ['engine', 'ports', 'integrations', 'store', 'base'],
  entry: ['config', 'routes', 'services', 'engine', 'ports', 'integrations', 'http', 'store', 'base'],
}

interface ServiceEdge {
  from: string
  to: string
  fromPath: string
  toPath: string
  file: string
  specifier: string
  typeOnly: boolean
}

function serviceEdges(): ServiceEdge[] {
  const root = join(SRC, 'service')
  const part = (path: string) => {
    const inService = relative(root, path).split(sep)
    return SERVICE_MODULE_PARTS[inService.join('/')] ?? SERVICE_PARTS[inService[0]!] ?? '?'
  }
  return sourceFiles(root).flatMap((file) =>
    staticImportsOf(file).flatMap(({ specifier, typeOnly }) => {
      const target = specifier.startsWith('.') ? resolveModule(resolve(dirname(file), specifier)) : undefined
      if (!target || !target.startsWith(root + sep)) return []
      return [{ from: part(file), to: part(target), fromPath: file, toPath: target, file: relative(SRC, file), specifier, typeOnly }]
    }),
  )
}

/** Each import and re-export of a file, and whether it brings types only (gone at run time). */
function staticImportsOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const code = readFileSync(file, 'utf8')
  const statements = [...code.matchAll(/^\s*(?:import|export)\s+(type\s+)?([^'"]*?)\bfrom\s*['"]([^'"]+)['"]/gm)].map((match) => {
    const clause = match[2]!.trim()
    const named = /^\{([^}]*)\}$/.exec(clause)?.[1]
    const items = named?.split(',').map((item) => item.trim()).filter(Boolean)
    const typeOnly = match[1] !== undefined || (items !== undefined && items.length > 0 && items.every((item) => item.startsWith('type ')))
    return { specifier: match[3]!, typeOnly }
  })
  const bare = [...code.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm), ...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)]
  return [...statements, ...bare.map((match) => ({ specifier: match[1]!, typeOnly: false }))]
}

function resolveModule(base: string): string | undefined {
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find((path) => existsSync(path) && statSync(path).isFile())
}
