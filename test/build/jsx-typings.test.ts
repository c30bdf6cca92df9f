import { existsSync, readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { CONSUMER_OPTIONS } from './consumer-options'

/**
 * The shipped declarations, as a TypeScript user of the package gets them: fixtures compile
 * against `dist/types` (written by `vite build`, see src/widget/build/declarations.ts), reached
 * through the package's own `exports` by name (`flow-chat-widget/react`), never through `src`.
 *
 * Fixtures import nothing from the package, so `npm run typecheck` checks them against the
 * sources too; here one virtual file per set holds the opt-in import a user writes once. In the
 * `*-mistakes` fixtures `@ts-expect-error TSnnnn` marks each expected error: the marker is
 * disabled before compiling, and the diagnostics must be exactly those, line and code.
 */
const ROOT = resolve(import.meta.dirname, '../..')
const FIXTURES = resolve(import.meta.dirname, 'fixtures')
const DIST_TYPES = resolve(ROOT, 'dist/types')

const OPTIONS = CONSUMER_OPTIONS

interface Found {
  file: string
  line: number
  code: number
  message: string
}

// Parsed once for all programs: lib.dom and the dependencies' declarations dominate the time.
const parsed = new Map<string, ts.SourceFile>()

/** Compiles `fixtures` plus a virtual `setup.ts` with `setup` as its text, as one program. */
function compile(setup: string, fixtures: string[], options = OPTIONS) {
  const setupFile = resolve(FIXTURES, 'setup.ts')
  const roots = [setupFile, ...fixtures.map((name) => resolve(FIXTURES, name))]
  const host = ts.createCompilerHost(options)
  const read = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, language, onError) => {
    if (fileName === setupFile) return ts.createSourceFile(fileName, setup, language, true)
    if (fileName.startsWith(`${FIXTURES}/`)) {
      // Same length, so positions and lines stay those of the file on disk.
      const text = readFileSync(fileName, 'utf8').replaceAll('@ts-expect-error', ' ts-expect-error')
      return ts.createSourceFile(fileName, text, language, true)
    }
    if (fileName.startsWith(`${DIST_TYPES}/`)) return read(fileName, language, onError)
    const key = `${fileName}\0${JSON.stringify(language)}`
    let file = parsed.get(key)
    if (!file) {
      file = read(fileName, language, onError)
      if (file) parsed.set(key, file)
    }
    return file
  }
  const program = ts.createProgram({ rootNames: roots, options, host })
  const checked = program.getSourceFiles().filter((file) => roots.includes(file.fileName) || file.fileName.startsWith(`${DIST_TYPES}/`))
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checked.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ]
  const found: Found[] = diagnostics.map((diagnostic) => ({
    file: diagnostic.file ? relative(ROOT, diagnostic.file.fileName) : '',
    line: diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0,
    code: diagnostic.code,
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n')[0]!,
  }))
  return { program, found }
}

/** The `@ts-expect-error TSnnnn` markers of a fixture: the line after each, and the code. */
function expected(name: string): Array<Pick<Found, 'file' | 'line' | 'code'>> {
  const lines = readFileSync(resolve(FIXTURES, name), 'utf8').split('\n')
  return lines.flatMap((text, index) => {
    const code = /@ts-expect-error TS(\d+)/.exec(text)?.[1]
    return code ? [{ file: relative(ROOT, resolve(FIXTURES, name)), line: index + 2, code: Number(code) }] : []
  })
}

const byPlace = (a: Pick<Found, 'file' | 'line' | 'code'>, b: Pick<Found, 'file' | 'line' | 'code'>) =>
  a.file.localeCompare(b.file) || a.line - b.line || a.code - b.code
const places = (found: Found[]) => found.map(({ file, line, code }) => ({ file, line, code })).sort(byPlace)

function requireBuild() {
  for (const file of ['widget/index.d.ts', 'widget/jsx/react.d.ts', 'widget/jsx/preact.d.ts']) {
    if (!existsSync(resolve(DIST_TYPES, file))) {
      throw new Error(`dist/types/${file} is missing: run \`npm run build\` (vite build writes them) first`)
    }
  }
}

/** Both ways consumers resolve packages: a bundler's, and Node's own (`node16`/`nodenext`). */
const RESOLUTIONS: Array<[string, ts.CompilerOptions]> = [
  ['bundler', OPTIONS],
  ['nodenext', { ...OPTIONS, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }],
]

describe.each(RESOLUTIONS)('shipped declarations, resolved as %s does', (_name, options) => {
  it('type the library entry without React types: elements, events, the embed API', () => {
    requireBuild()
    const setup = `
import { defineFlowChatLaunchers, initBubble, type FlowChatEventMap, type FlowChatElement } from 'flow-chat-widget'
defineFlowChatLaunchers()
const bubble = initBubble({ flow: 'faq', apiHost: 'https://flows.example.com', previewMessage: 'Hi' })
bubble.open()
const chat: FlowChatElement | null = document.querySelector('flow-chat')
chat?.addEventListener('flowchat:answer', (event) => event.detail.message satisfies FlowChatEventMap['flowchat:answer']['message'])
chat?.reload()
`
    // No JSX option: with one, TypeScript would load the JSX runtime's types for every module.
    const { program, found } = compile(setup, ['library-usage.ts'], { ...options, jsx: undefined })
    expect(found).toEqual([])
    // The main entry must work for users who never installed @types/react.
    const files = program.getSourceFiles().map((file) => relative(ROOT, file.fileName))
    expect(files).toContain('dist/types/widget/index.d.ts')
    expect(files.filter((file) => file.includes('@types/react'))).toEqual([])
  })

  it('give React 19 typed <flow-chat>, <flow-chat-bubble> and <flow-chat-popup> tags after one import', () => {
    requireBuild()
    const { found } = compile(`import 'flow-chat-widget/react'\n`, ['react-usage.tsx', 'react-mistakes.tsx'], options)
    expect(places(found)).toEqual(expected('react-mistakes.tsx').sort(byPlace))
    expect(found.find((error) => error.code === 2551 && /mesage/.test(error.message))?.message).toMatch(/Did you mean 'message'\?/)
  })

  it('give Preact typed tags after one import, signals allowed as values', () => {
    requireBuild()
    const { found } = compile(`import 'flow-chat-widget/preact'\n`, ['preact-usage.tsx', 'preact-mistakes.tsx'], options)
    expect(places(found)).toEqual(expected('preact-mistakes.tsx').sort(byPlace))
  })

  it('leave the tags unknown to React without the opt-in import', () => {
    requireBuild()
    const { found } = compile(`import 'flow-chat-widget'\n`, ['react-usage.tsx'], options)
    const unknownTags = found.filter((error) => error.code === 2339 && /IntrinsicElements/.test(error.message))
    expect(unknownTags.map((error) => /'(flow-chat[\w-]*)'/.exec(error.message)?.[1])).toEqual(['flow-chat', 'flow-chat-bubble', 'flow-chat-popup'])
  })
})
