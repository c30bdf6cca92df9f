import { signal } from '@preact/signals-core'
import type { ChatMessage } from '../../protocol/index'
import { richTextToPlain } from '../../protocol/rich-text'

export { richTextToPlain }

type HtmlReader = (html: string) => string

/**
 * How html reads as text: `htmlText` (html-text.ts), once the html chunk that brings it is here.
 * That chunk is requested before an html-only message shows; until it is here (and if it cannot
 * load) the markup's tags are dropped, which is all a typing time or a stand-in text needs.
 */
const htmlReader = signal<HtmlReader | undefined>(undefined)
const dropTags: HtmlReader = (html) => html.replace(/<[^>]*>/g, '').trim()

/** The text of an html string (see `htmlReader`). */
export const htmlToPlain = (html: string): string => (htmlReader.value ?? dropTags)(html)

/** Loads the html chunk (`load`) and reads html with its reading from then on; if it cannot load, nothing waits for it. */
export const withHtmlReader = <T extends { htmlText: HtmlReader }>(load: Promise<T>): Promise<T> =>
  load.then(
    (chunk) => {
      htmlReader.value = chunk.htmlText
      return chunk
    },
    (error: unknown) => {
      htmlReader.value ??= dropTags
      throw error
    },
  )

const str = (value: unknown): string => (typeof value === 'string' ? value : '')
const contentOf = (message: ChatMessage) => (message.content ?? {}) as Record<string, unknown>

/** The words of a text message that says them in richText or plainText; `undefined` when only its html does. */
function statedText(content: Record<string, unknown>): string | undefined {
  if (Array.isArray(content.richText) && content.richText.length > 0) {
    const text = richTextToPlain(content.richText)
    if (text.trim()) return text
  }
  return str(content.plainText) || undefined
}

/** The words a person would read in a message; media messages give their alt text or nothing. */
export function messageText(message: ChatMessage): string {
  const content = contentOf(message)
  if (message.type === 'text') return statedText(content) ?? htmlToPlain(str(content.html))
  return str((content.clickLink as Record<string, unknown> | null | undefined)?.alt)
}

/**
 * Whether a message's words are still on their way: an html-only text while the html chunk (and
 * its reading of html) neither came nor failed. Its announcement waits, as a picture's does.
 */
export const awaitsHtmlReader = (message: ChatMessage): boolean =>
  message.type === 'text' && !htmlReader.value && statedText(contentOf(message)) === undefined && str(contentOf(message).html).trim() !== ''
