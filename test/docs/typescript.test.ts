import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { CONSUMER_OPTIONS } from '../build/consumer-options'
import { codeBlocks, documents, REPO_ROOT } from './doc-blocks'

/**
 * Every TypeScript block of the documentation compiles, as a user of the package writes it,
 * against the declarations the build ships (`dist/types`, reached through the package's own
 * `exports` by name), as a strict user compiles (test/build/consumer-options.ts). A renamed
 * method, option or event in the docs fails here.
 */
const OPTIONS = CONSUMER_OPTIONS

const snippets = documents()
  .flatMap(codeBlocks)
  .filter((block) => block.lang === 'ts' || block.lang === 'tsx')

describe('every TypeScript block in the documentation', () => {
  it('are there to compile', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(3)
  })

  it('compiles against the shipped declarations', () => {
    if (!existsSync(resolve(REPO_ROOT, 'dist/types/widget/index.d.ts'))) throw new Error('dist/types is missing: run `npm run build` first')
    // Each block is a module of its own, inside the repository so the package resolves by name.
    const files = new Map(snippets.map((block, index) => [resolve(REPO_ROOT, `test/docs/snippet-${index}.${block.lang}`), block]))
    const host = ts.createCompilerHost(OPTIONS)
    const read = host.getSourceFile.bind(host)
    host.getSourceFile = (fileName, language, onError) => {
      const block = files.get(fileName)
      return block ? ts.createSourceFile(fileName, block.code, language, true) : read(fileName, language, onError)
    }
    const exists = host.fileExists.bind(host)
    host.fileExists = (fileName) => files.has(fileName) || exists(fileName)
    const program = ts.createProgram({ rootNames: [...files.keys()], options: OPTIONS, host })
    const problems = [...files].flatMap(([fileName, block]) => {
      const file = program.getSourceFile(fileName)!
      return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((diagnostic) => {
        const line = diagnostic.start === undefined ? 0 : file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
        return `${block.name}, line ${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n')[0]}`
      })
    })
    expect(problems).toEqual([])
  })
})
