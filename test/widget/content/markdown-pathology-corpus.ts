/**
 * Markdown written to make a parser slow or crash (issue 22, item 10: an AI answer a prompt
 * injection wrote). Each entry names its pathology and makes an input of about `size` characters,
 * so a test can compare the work of one size with that of a larger one.
 */
export interface MarkdownPathology {
  pathology: string
  make(size: number): string
}

const fill = (unit: string, size: number) => unit.repeat(Math.max(1, Math.floor(size / unit.length)))
const around = (open: string, middle: string, close: string, size: number) => {
  const count = Math.max(1, Math.floor(size / (open.length + close.length)))
  return open.repeat(count) + middle + close.repeat(count)
}
/** Lines indented one step more each, back to the margin every `depth` lines. */
const staircase = (marker: string, size: number, depth = 200) => {
  const lines: string[] = []
  for (let length = 0, index = 0; length < size; index++) {
    const line = `${'  '.repeat(index % depth)}${marker} a\n`
    lines.push(line)
    length += line.length
  }
  return lines.join('')
}

export const MARKDOWN_PATHOLOGIES: MarkdownPathology[] = [
  { pathology: '`_a` runs: every underscore makes the e-mail look-ahead read the rest of the run', make: (size) => fill('_a', size) },
  { pathology: '`*a` runs: emphasis openers without closers', make: (size) => fill('*a', size) },
  { pathology: '`~a` runs: strikethrough openers without closers', make: (size) => fill('~a', size) },
  { pathology: '`_a` lines: a paragraph of thousands of short lines of openers', make: (size) => fill('_a\n', size) },
  { pathology: 'emphasis nested thousands deep: `***…a…***`', make: (size) => around('*', 'a', '*', size) },
  { pathology: 'strong emphasis nested thousands deep: `**__**__…a…`', make: (size) => around('**__', 'a', '__**', size) },
  { pathology: 'strikethrough nested thousands deep: `~~…a…~~`', make: (size) => around('~~', 'a', '~~', size) },
  {
    pathology: 'emphasis and strikethrough nested word by word: `*a _b ~~c …`',
    make: (size) => around('*a _b ~~c ', 'deep', ' c~~ b_ a*', size),
  },
  { pathology: 'block quotes nested thousands deep: `>>>>…`', make: (size) => `${fill('>', size)} a` },
  { pathology: 'block quotes nested thousands deep with spaces: `> > > …`', make: (size) => `${fill('> ', size)}a` },
  { pathology: 'lists nested thousands deep on one line: `- - - …`', make: (size) => `${fill('- ', size)}a` },
  { pathology: 'ordered lists nested thousands deep on one line: `1. 1. 1. …`', make: (size) => `${fill('1. ', size)}a` },
  { pathology: 'lists nested by indentation, two hundred levels again and again', make: (size) => staircase('-', size) },
  { pathology: 'quotes in lists in quotes, thousands deep: `> - > - …`', make: (size) => `${fill('> - ', size)}a` },
  { pathology: 'long link brackets: `[` never closed', make: (size) => fill('[', size) },
  { pathology: 'link text nested thousands deep: `[[[…a…](x)](x)`', make: (size) => around('[', 'a', '](x)', size) },
  { pathology: 'link destinations of unclosed parentheses: `[a](((…`', make: (size) => `[a](${fill('(', size)}` },
  { pathology: 'unclosed links: `[a](b` again and again', make: (size) => fill('[a](b', size) },
  { pathology: 'image brackets never closed: `![![![…`', make: (size) => fill('![', size) },
  {
    pathology: 'backtick runs of every length: `` `a``a```a… ``',
    make: (size) => {
      const parts: string[] = []
      for (let length = 0, run = 1; length < size; run++) {
        parts.push(`${'`'.repeat(run)}a`)
        length += run + 1
      }
      return parts.join('')
    },
  },
  { pathology: 'one backtick run around a long span', make: (size) => around('`', 'a', '`', size) },
  { pathology: 'unclosed HTML tags: `<a <a <a …`', make: (size) => fill('<a ', size) },
  { pathology: 'HTML comment never closed', make: (size) => `<!--${fill('a -', size)}` },
  { pathology: 'autolink-like text: `www.` again and again', make: (size) => fill('www.', size) },
  { pathology: 'e-mail-like text: dots and letters before one `@`', make: (size) => `${fill('a.', size)}@b` },
  { pathology: 'escapes: `\\*` again and again', make: (size) => fill('\\*', size) },
  { pathology: 'a table a thousand columns wide', make: (size) => `${fill('|a', size / 2)}\n${fill('|-', size / 2)}\n` },
  { pathology: 'a table of thousands of rows', make: (size) => `|a|b|\n|-|-|\n${fill('|x|y|\n', size)}` },
  { pathology: 'setext underlines after every line', make: (size) => fill('a\n=\n', size) },
  { pathology: 'reference definitions by the thousand', make: (size) => fill('[a]: http://x\n', size) },
  { pathology: 'a fenced code block never closed', make: (size) => `\`\`\`\n${fill('code _a *b\n', size)}` },
  { pathology: 'a paragraph of one word longer than a screen: letters and underscores', make: (size) => fill('abc_', size) },
]
