import type { Rolldown } from 'vite'

/**
 * Minifies the widget's stylesheets where they are written: templates tagged `css` (ui/styles.ts)
 * lose their comments and the whitespace CSS does not need, and their tag (which only joins the
 * template as it is when the sources run untransformed, as in unit tests). The expressions inside
 * `${…}` are kept as they are.
 */
export function cssTemplates(): Rolldown.Plugin {
  return {
    name: 'flow-chat-css-templates',
    transform(code, id) {
      if (!/\.tsx?$/.test(id) || id.includes('node_modules') || !TAG.test(code)) return null
      return { code: minifyCssTemplates(code, id), map: null }
    },
  }
}

const TAG = /\bcss`/

/** Whitespace around these characters never matters in CSS (`:` only after it: `a :hover` is a selector). */
const minifyText = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ?([{};,>]) ?/g, '$1')
    .replace(/: /g, ':')
    .replace(/;}/g, '}')

export function minifyCssTemplates(code: string, id: string): string {
  let out = ''
  let at = 0
  for (let start = code.search(TAG); start >= 0; start = nextTag(code, at)) {
    out += code.slice(at, start)
    let i = start + 'css`'.length
    let text = ''
    let body = '`'
    for (;;) {
      const char = code[i]
      if (char === undefined) throw new Error(`${id}: a css\`…\` template does not end`)
      if (char === '`') break
      if (char === '\\') throw new Error(`${id}: escapes in a css\`…\` template are not supported`)
      if (char === '$' && code[i + 1] === '{') {
        const end = expressionEnd(code, i + 2, id)
        body += `${minifyText(text)}${code.slice(i, end + 1)}`
        text = ''
        i = end + 1
        continue
      }
      text += char
      i++
    }
    body += `${minifyText(text)}\``
    out += body.replace(/^` /, '`').replace(/ `$/, '`')
    at = i + 1
  }
  return out + code.slice(at)
}

const nextTag = (code: string, from: number) => {
  const found = code.slice(from).search(TAG)
  return found < 0 ? -1 : from + found
}

/** The index of the `}` closing a `${` expression that starts at `from` (strings and nested templates skipped). */
function expressionEnd(code: string, from: number, id: string): number {
  let depth = 0
  for (let i = from; i < code.length; i++) {
    const char = code[i]
    if (char === '`') i = templateEnd(code, i + 1, id)
    else if (char === "'" || char === '"') i = code.indexOf(char, i + 1)
    else if (char === '{') depth++
    else if (char === '}' && depth-- === 0) return i
    if (i < 0) break
  }
  throw new Error(`${id}: a css\`…\` template has an expression this build cannot read`)
}

/** The index of the backtick closing a template whose text starts at `from`. */
function templateEnd(code: string, from: number, id: string): number {
  for (let i = from; i < code.length; i++) {
    if (code[i] === '\\') i++
    else if (code[i] === '`') return i
    else if (code[i] === '$' && code[i + 1] === '{') i = expressionEnd(code, i + 2, id)
  }
  return -1
}
