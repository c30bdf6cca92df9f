import { isRichElement, isRichLeaf, MAX_RICH_TEXT_DEPTH, type RichLeaf } from '../../../../protocol/rich-text'
import { replacePlaceholders } from '../../core/variables'

/**
 * A text bubble as Markdown, when a variable its author marked as Markdown (`isMarkdown: true`,
 * say the variable an AI answer is saved in) is inserted into it: the flow's own words and
 * formatting written as Markdown (its words escaped, so they read as they were typed), that
 * variable's value inserted as it is, so its bold, lists and links show. Every other value is
 * escaped too: what a visitor or a page put in a variable (an answer, a share link's query) reads
 * as the text it is, never as a heading or a link. The widget renders it with the sanitiser of AI
 * answers. Undefined when no Markdown value inserted reads differently as Markdown: the rich text,
 * with the values as plain text, then says it all.
 */
export function richTextToMarkdown(
  nodes: readonly unknown[],
  valueNamed: (name: string) => string,
  isMarkdown: (name: string) => boolean,
): string | undefined {
  let used = false
  let marked = false
  // Literal text between placeholders is escaped; values go in as written.
  const fill = (text: string) =>
    replacePlaceholders(text.replace(/\u0000/g, ''), (name) => `\u0000${name}\u0000`)
      .split('\u0000')
      .map((part, i) => {
        if (i % 2 === 0) return escapeMarkdown(part)
        const value = valueNamed(part)
        if (!isMarkdown(part)) return escapeValue(value)
        used = true
        marked ||= MARKDOWN_SYNTAX.test(value)
        return value
      })
      .join('')
  const link = (url: string) => replacePlaceholders(url, valueNamed)
  const markdown = blocks(nodes, { fill, link }, 0).trim()
  return used && marked ? markdown : undefined
}

/** A value that reads differently as Markdown: emphasis, code, links, headings, quotes, lists, lines. */
const MARKDOWN_SYNTAX = /[*_`#[\]~|\n]|^\s*(?:[-+]\s|\d+\.\s|>)/

type Fill = { fill: (text: string) => string; link: (url: string) => string }

const SPECIAL = /[\\`*_{}[\]()<>#+\-.!|~]/g

/** Markdown's punctuation escaped, so the flow's own words never turn into markup. */
export function escapeMarkdown(text: string): string {
  return text.replace(SPECIAL, (char) => `\\${char}`)
}

/**
 * A value shown as text: Markdown's punctuation escaped, and `:`, `@`, `=` and `&` too (so that
 * no address turns into a link by itself, no line underlines the one before into a heading, no
 * entity turns into another character), and each line's leading spaces dropped (four would start
 * a code block; HTML collapses them anyway).
 */
const escapeValue = (value: string) => escapeMarkdown(value.replace(/^[ \t]+/gm, '')).replace(/[:@=&]/g, (char) => `\\${char}`)

function blocks(nodes: readonly unknown[], fill: Fill, depth: number): string {
  if (depth > MAX_RICH_TEXT_DEPTH) return ''
  return nodes.map((node) => block(node, fill, depth)).join('')
}

function block(node: unknown, fill: Fill, depth: number): string {
  if (!isRichElement(node)) return inline([node], fill, depth)
  const type = String(node.type)
  if (type === 'ul' || type === 'ol') {
    const items = node.children.map((item, i) => `${type === 'ol' ? `${i + 1}.` : '-'} ${inline([item], fill, depth + 1).trim()}`)
    return `${items.join('\n')}\n\n`
  }
  const heading = /^h([1-6])$/.exec(type)
  const text = inline(node.children, fill, depth + 1)
  if (heading) return `${'#'.repeat(Number(heading[1]))} ${text}\n\n`
  if (type === 'blockquote') return `> ${text}\n\n`
  if (type === 'p' || type === 'code_block') return `${text}\n\n`
  return text
}

function inline(nodes: readonly unknown[], fill: Fill, depth: number): string {
  if (depth > MAX_RICH_TEXT_DEPTH) return ''
  return nodes
    .map((node) => {
      if (isRichLeaf(node)) return leaf(node, fill)
      if (!isRichElement(node)) return ''
      const text = inline(node.children, fill, depth + 1)
      if (node.type === 'a' && typeof node.url === 'string' && node.url.trim() !== '') {
        return `[${text}](<${fill.link(node.url.trim()).replace(/[<>\s]/g, encodeURIComponent)}>)`
      }
      // Block elements nested in a list item read as a line of it.
      return isRichElement(node) && (node.type === 'p' || node.type === 'li' || node.type === 'lic') ? `${text} ` : text
    })
    .join('')
}

function leaf(node: RichLeaf, fill: Fill): string {
  let text = fill.fill(node.text)
  if (node.code === true) text = wrap(text, '`')
  if (node.bold === true) text = wrap(text, '**')
  if (node.italic === true) text = wrap(text, '*')
  if (node.strikethrough === true) text = wrap(text, '~~')
  return text
}

/** Markers hug the text (`** x**` is not bold): surrounding spaces go outside them. */
function wrap(text: string, marker: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!
  return match[2] === '' ? text : `${match[1]}${marker}${match[2]}${marker}${match[3]}`
}
