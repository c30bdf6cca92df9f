import { existsSync } from 'node:fs'
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import ts from 'typescript'

/**
 * The packages the widget bundles whose types its declarations name: the contract's zod schemas
 * (protocol types are inferred from them) and the conversation's signals. Their declarations ship
 * with the widget's, in `types/vendor/<package>/…` (with their licences), and the widget's
 * declarations import them from there: the package needs no dependency for its types either.
 * Preact (`flow-chat-widget/preact`) and React (`/react`) stay imports: their users have them.
 */
export const VENDORED_TYPES = ['zod', '@preact/signals-core']

const RESOLUTION: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }
const NODE_MODULES = `${sep}node_modules${sep}`

/** `zod/mini` → `zod`; `@preact/signals-core/x` → `@preact/signals-core`. */
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/')

/** Every module a declaration file names (imports, re-exports, `import('…')` types), comments aside. */
function specifiersOf(text: string): string[] {
  const found: string[] = []
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(ts.createSourceFile('file.d.ts', text, ts.ScriptTarget.Latest, false))
  return found
}

/**
 * The declaration file an `import` of a specifier names from `importer`, by Node's resolution (its
 * `types` condition); the ES twin of a `.d.cts` (zod names those for both), as the package's own
 * files are ES modules.
 */
function resolveDeclaration(specifier: string, importer: string): string {
  const resolved = ts.resolveModuleName(specifier, importer, RESOLUTION, ts.sys, undefined, undefined, ts.ModuleKind.ESNext).resolvedModule
    ?.resolvedFileName
  const twin = resolved?.replace(/\.d\.cts$/, '.d.ts')
  if (!twin?.endsWith('.d.ts') || !existsSync(twin)) throw new Error(`declarations: no ES declarations for ${specifier} (from ${importer})`)
  return twin
}

/** `…/node_modules/zod/v4/core/core.d.ts` → `zod/v4/core/core.d.ts`. */
const vendoredPath = (file: string) => file.slice(file.lastIndexOf(NODE_MODULES) + NODE_MODULES.length)

/** A specifier naming `target` from `from`, as Node's resolution wants it (`.js` for a `.d.ts`). */
function specifierTo(from: string, target: string): string {
  const path = relative(dirname(from), target).split(sep).join('/').replace(/\.d\.ts$/, '.js')
  return path.startsWith('.') ? path : `./${path}`
}

async function declarationFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.d.ts')).map((entry) => join(entry.parentPath, entry.name))
}

/**
 * Copies the declarations of VENDORED_TYPES the files under `typesDir` reach into
 * `typesDir/vendor`, and points every import of them there.
 */
export async function vendorTypes(typesDir: string): Promise<void> {
  const vendorDir = join(typesDir, 'vendor')
  const copies = new Map<string, string>() // node_modules file → its copy
  const pending: string[] = []
  const vendored = (specifier: string) => !specifier.startsWith('.') && VENDORED_TYPES.includes(packageOf(specifier))
  const copyOf = (source: string) => {
    let copy = copies.get(source)
    if (!copy) {
      copy = join(vendorDir, vendoredPath(source))
      copies.set(source, copy)
      pending.push(source)
    }
    return copy
  }

  /** Rewrites `text` (the file `at`, read from `origin`) so its imports of vendored packages name their copies. */
  const repoint = (text: string, origin: string, at: string) => {
    let out = text
    for (const specifier of new Set(specifiersOf(text).filter(vendored))) {
      const target = specifierTo(at, copyOf(resolveDeclaration(specifier, origin)))
      out = out.replaceAll(`'${specifier}'`, `'${target}'`).replaceAll(`"${specifier}"`, `"${target}"`)
    }
    return out
  }

  for (const file of await declarationFiles(typesDir)) {
    const text = await readFile(file, 'utf8')
    const out = repoint(text, file, file)
    if (out !== text) await writeFile(file, out)
  }
  // Their own files, and what they import in turn (relative files, or another entry of theirs).
  while (pending.length > 0) {
    const source = pending.shift()!
    const copy = copies.get(source)!
    const text = await readFile(source, 'utf8')
    for (const specifier of specifiersOf(text)) if (specifier.startsWith('.')) copyOf(resolveDeclaration(specifier, source))
    await mkdir(dirname(copy), { recursive: true })
    await writeFile(copy, repoint(text, source, copy))
  }
  // Each package's licence beside its files.
  const roots = new Map([...copies.keys()].map((source) => [packageOf(vendoredPath(source).split(sep).join('/')), source]))
  for (const [name, source] of roots) {
    const root = join(source.slice(0, source.lastIndexOf(NODE_MODULES) + NODE_MODULES.length), name)
    await copyFile(join(root, 'LICENSE'), join(vendorDir, name, 'LICENSE'))
  }
}
