import type { ChatMessage } from '../../protocol/index'
import { richTextToPlain } from '../../protocol/rich-text'

export { richTextToPlain }

const ENTITIES = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', ' '],
])

/**
 * Rough text of an HTML string without a DOM (it runs before DOMPurify is loaded). Only ever used
 * as text (`textContent`, word counts), never parsed as markup, so roughness is harmless.
 */
export function htmlToPlain(html: string): string {
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

const str = (value: unknown): string => (typeof value === 'string' ? value : '')

/** The words a person would read in a message; media messages give their alt text or nothing. */
export function messageText(message: ChatMessage): string {
  const content = message.content as Record<string, unknown> | null | undefined
  if (!content || typeof content !== 'object') return ''
  if (message.type === 'text') {
    if (Array.isArray(content.richText) && content.richText.length > 0) {
      const text = richTextToPlain(content.richText)
      if (text.trim()) return text
    }
    if (str(content.plainText)) return str(content.plainText)
    return htmlToPlain(str(content.html))
  }
  const link = content.clickLink as Record<string, unknown> | null | undefined
  return str(link?.alt)
}
