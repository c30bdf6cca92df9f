import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The import rules of README "Where things are", checked on the sources: a widget folder imports
 * only leftwards in `protocol ← chat ← ui ← element` (then `embed`, `jsx` and the two entries),
 * with `transport`, `content`, `sandbox` and `i18n` beside them, importing only the contract; the
 * service's store and engine never reach up into the routes and services, nor the store into the
 * engine (it keeps what the engine hands it as plain data).
 */
const SRC = resolve(import.meta.dirname, '../../src')

const BESIDE = ['transport', 'content', 'sandbox', 'i18n']
/** What each part of the widget may import (besides itself). */
const WIDGET_RULES: Record<string, readonly string[]> = {
  protocol: [],
  transport: ['protocol'],
  content: ['protocol'],
  sandbox: ['protocol'],
  // The widget's words (the English table, the translations) and the chat's language.
  i18n: ['protocol'],
  chat: ['protocol', ...BESIDE],
  ui: ['protocol', 'chat', ...BESIDE],
  element: ['protocol', 'chat', 'ui', ...BESIDE],
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

/** `protocol`, `service/…` or the widget part (`chat`, `entry`, …) a source path belongs to. */
function partOf(path: string): string {
  const [top, second] = relative(SRC, path).split(sep)
  if (top === 'protocol') return 'protocol'
  if (top === 'service') return `service/${second}`
  if (top === 'widget') {
    const folder = join(SRC, 'widget', second ?? '')
    return existsSync(folder) && statSync(folder).isDirectory() ? second! : 'entry'
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

  it('knows every widget folder', () => {
    const folders = readdirSync(join(SRC, 'widget'), { withFileTypes: true }).filter((entry) => entry.isDirectory())
    expect(folders.map((folder) => folder.name).filter((name) => !(name in WIDGET_RULES))).toEqual([])
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
})
