import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * No two modules need each other, for their values or their types: a cycle means two files are
 * one concept split in two, or a lower one naming what is above it (an engine naming an
 * integration instead of owning the port the integration implements). Checked on every module of
 * each source root below, whatever its folders, so a folder split or a new one is covered as it
 * lands. Static imports and re-exports count, `import type` included; a dynamic `import()` is a
 * lazy chunk's boundary, loaded after both sides, and does not.
 */
const SRC = resolve(import.meta.dirname, '../../src')
const ROOTS = ['service', 'widget', 'protocol', 'admin']

/** Cycles tolerated for now: none. The list only shrinks: a cycle that is gone fails the test too, until it leaves the list. */
const KNOWN: Record<string, string[]> = {}

/** Every `.ts`/`.tsx` source file below `dir`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/** The relative modules a file imports or re-exports statically, type-only ones included. */
function staticImports(file: string): string[] {
  const code = readFileSync(file, 'utf8')
  const specifiers = [
    ...code.matchAll(/^\s*(?:import|export)\s[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gm),
    ...code.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
  ].map((match) => match[1]!)
  return specifiers.filter((specifier) => specifier.startsWith('.')).flatMap((specifier) => resolveModule(resolve(dirname(file), specifier)) ?? [])
}

function resolveModule(base: string): string | undefined {
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx'), base].find(
    (path) => existsSync(path) && statSync(path).isFile() && /\.tsx?$/.test(path),
  )
}

/** The import cycles of a graph: its strongly connected components of more than one module (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member)
      component.push(member)
      if (member === node) break
    }
    if (component.length > 1) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

describe('import cycles', () => {
  for (const root of ROOTS) {
    it(`src/${root} has no import cycle, of values or of types`, () => {
      const files = sourceFiles(join(SRC, root))
      expect(files.length).toBeGreaterThan(0)
      const graph = new Map(files.map((file) => [file, staticImports(file)]))
      const found = cycles(graph).map((cycle) => cycle.map((path) => relative(SRC, path)).join(' ↔ '))
      expect(found.sort()).toEqual([...(KNOWN[root] ?? [])].sort())
    })
  }

  it('finds a cycle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ])
    expect(cycles(graph)).toEqual([['a', 'b', 'c']])
  })
})
