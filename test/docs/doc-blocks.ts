import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import GithubSlugger from 'github-slugger'
import { marked, type Token, type Tokens } from 'marked'

/**
 * The project's documents as readers see them, read with a Markdown parser: their code blocks
 * (what the docs tests run), their links and their headings' anchors (what the links test checks).
 *
 * A block may carry one instruction for the tests, an HTML comment right before it (invisible on
 * the rendered page):
 * - `<!-- docs-test: skip, <why> -->`: a shell block that cannot run here (it installs packages,
 *   starts a long-running server, needs Docker or a PostgreSQL server);
 * - `<!-- docs-test: file <name> -->`: the block is a file the shell blocks of the page use, written
 *   under that name in the directory they run in;
 * - `<!-- docs-test: output -->`: the block is what the shell block before it prints (JSON; a
 *   string value `…` stands for any value, other values must be as shown);
 * - `<!-- docs-test: not run by the service -->`: a flow whose blocks the service skips on purpose
 *   (the docs say so): it must still end, with the skip logged.
 */

export const REPO_ROOT = resolve(import.meta.dirname, '../..')

export type Instruction = { kind: 'skip'; why: string } | { kind: 'file'; name: string } | { kind: 'output' } | { kind: 'not-run' }

export interface CodeBlock {
  /** The document, from the repository root (`docs/operators/deployment.md`). */
  document: string
  /** The heading it is under and its position there: how a failing test names it. */
  name: string
  lang: string
  code: string
  instruction?: Instruction
  /** The block right after this one when nothing but an instruction lies between (its output). */
  next?: CodeBlock
}

/**
 * README.md, CHANGELOG.md, every page under docs/ and the README.md of every folder of src/ and
 * test/ (each says where its topic is documented), from the repository root, in a stable order.
 */
export function documents(): string[] {
  const pages = (directory: string, keep = (name: string) => name.endsWith('.md')): string[] =>
    readdirSync(resolve(REPO_ROOT, directory), { withFileTypes: true })
      .flatMap((entry) =>
        entry.isDirectory() ? pages(join(directory, entry.name), keep) : keep(entry.name) ? [join(directory, entry.name)] : [],
      )
      .sort()
  const folderReadmes = ['src', 'test'].flatMap((root) => pages(root, (name) => name === 'README.md'))
  return ['README.md', 'CHANGELOG.md', ...pages('docs'), ...folderReadmes]
}

const tokensOf = (document: string): Token[] => marked.lexer(readFileSync(resolve(REPO_ROOT, document), 'utf8'))

function instructionOf(token: Token | undefined): Instruction | undefined {
  if (token?.type !== 'html') return undefined
  const text = /^<!--\s*docs-test:\s*(.*?)\s*-->\s*$/s.exec(token.raw.trim())?.[1]
  if (text === undefined) return undefined
  if (text.startsWith('skip')) return { kind: 'skip', why: text.replace(/^skip,?\s*/, '') }
  if (text.startsWith('file ')) return { kind: 'file', name: text.slice(5).trim() }
  if (text === 'output') return { kind: 'output' }
  if (text === 'not run by the service') return { kind: 'not-run' }
  throw new Error(`unknown docs-test instruction: ${text}`)
}

/** Every fenced code block of a document, in order, nested ones (in lists) included. */
export function codeBlocks(document: string): CodeBlock[] {
  const blocks: CodeBlock[] = []
  let heading = document
  let count = 0
  // Between two blocks: the last one seen and whether only instructions or blank space came since.
  let previous: CodeBlock | undefined
  let pending: Instruction | undefined
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'space') continue
      const instruction = instructionOf(token)
      if (instruction) {
        pending = instruction
        continue
      }
      if (token.type === 'heading') {
        heading = plainText((token as Tokens.Heading).tokens)
        count = 0
      }
      if (token.type === 'code') {
        const { lang = '', text } = token as Tokens.Code
        const block: CodeBlock = {
          document,
          name: `${document} › ${heading} #${++count}`,
          lang: lang.split(/\s/)[0] ?? '',
          code: text,
          ...(pending && { instruction: pending }),
        }
        if (previous && pending?.kind === 'output') previous.next = block
        blocks.push(block)
        previous = block
        pending = undefined
        continue
      }
      pending = undefined
      const nested = nestedTokens(token)
      if (nested.length > 0) {
        previous = undefined
        visit(nested)
      } else previous = undefined
    }
  }
  visit(tokensOf(document))
  return blocks
}

/** Tokens holding blocks inside a token: list items' contents, a blockquote's. */
function nestedTokens(token: Token): Token[] {
  if (token.type === 'list') return (token as Tokens.List).items.flatMap((item) => item.tokens)
  if (token.type === 'blockquote') return (token as Tokens.Blockquote).tokens
  return []
}

/** A heading's text as it reads (code spans, emphasis and links flattened). */
function plainText(tokens: Token[] = []): string {
  return tokens
    .map((token) => ('tokens' in token && token.tokens ? plainText(token.tokens) : 'text' in token ? String(token.text) : ''))
    .join('')
}

/** The anchors GitHub gives a document's headings (`#the-flowchat-api`), duplicates numbered. */
export function anchors(document: string): Set<string> {
  const slugger = new GithubSlugger()
  const found = new Set<string>()
  marked.walkTokens(tokensOf(document), (token) => {
    if (token.type === 'heading') found.add(slugger.slug(plainText((token as Tokens.Heading).tokens)))
  })
  return found
}

export interface Link {
  document: string
  href: string
}

/** Every link and image of a document, as written. */
export function links(document: string): Link[] {
  const found: Link[] = []
  marked.walkTokens(tokensOf(document), (token) => {
    if (token.type === 'link' || token.type === 'image') found.push({ document, href: (token as Tokens.Link).href })
  })
  return found
}

/** Where a relative link leads: a path from the repository root and the anchor, if any. */
export function target(link: Link): { path: string; anchor?: string } {
  const [path = '', anchor] = link.href.split('#')
  const resolved = path === '' ? link.document : relative(REPO_ROOT, resolve(REPO_ROOT, link.document, '..', decodeURIComponent(path)))
  return anchor === undefined ? { path: resolved } : { path: resolved, anchor: decodeURIComponent(anchor) }
}
