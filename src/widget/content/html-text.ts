const ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', ' '],
])

/**
 * The text of an HTML string without a DOM. Only ever used as text (`textContent`, announcements,
 * word counts), never parsed as markup, so a rough reading is harmless. It comes with the html
 * chunk (ui/html.tsx), which every html-only message loads; see `htmlToPlain` in plain-text.ts.
 */
export function htmlText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|li|h\d)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[\da-f]+|\w+);/gi, (match, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1))
        return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : match
      }
      return ENTITIES.get(name.toLowerCase()) ?? match
    })
    .trim()
}
