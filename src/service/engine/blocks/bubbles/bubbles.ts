import type { Block, ChatMessage } from '../../../../protocol/index'
import { type Continuation, follow } from '../../core/continuation'
import { deepFreeze } from '../../core/deep-freeze'
import { asFields, type Fields, readBoolean, readString, toFiniteNumber } from '../../core/field-readers'
import type { FlowIndex } from '../../core/flow-index'
import type { Step } from '../../core/step'
import { escapeHtml, isMarkdownVariable, type Substitute } from '../../core/variables'
import { richTextToMarkdown } from './markdown-text'
import { mapRichText, richTextToPlainText } from './rich-text'
import { parseVideoUrl } from './video-url'

/** A bubble block: its message joins the response (unless it has nothing to show); the walk goes on. */
export function runBubble(block: Block, step: Step): Continuation {
  const message = buildBubbleMessage(block, step.substitute, markdownNames(step.index))
  if (message) step.addMessage(message)
  return follow(block.outgoingEdgeId)
}

/**
 * The message a bubble block sends, with variables filled in, or null when there is nothing
 * to show (a text that is blank once filled, a media block without an address): an empty
 * bubble would only look broken to the visitor.
 */
export function buildBubbleMessage(block: Block, substitute: Substitute, isMarkdown: IsMarkdown = () => false): ChatMessage | null {
  const known = unchanging.get(block)
  if (known !== undefined && known !== NAMES_VARIABLES) return known
  const content = asFields(block.content)
  const build = BUILDERS[block.type]
  const built = build ? build(content, substitute, isMarkdown) : null
  const message = built ? { id: block.id, type: block.type, content: built } : null
  // Blocks come from a frozen published version (flows/published-versions.ts), kept while it is cached.
  if (known === undefined && Object.isFrozen(block)) {
    unchanging.set(block, JSON.stringify(block.content ?? null).includes('{{') ? NAMES_VARIABLES : deepFreeze(message))
  }
  return message
}

/**
 * A bubble naming no variable reads the same in every conversation: it is built once per block of
 * a published version (most of a flow's bubbles are such text), the others every time.
 */
const unchanging = new WeakMap<Block, ChatMessage | null | typeof NAMES_VARIABLES>()
const NAMES_VARIABLES = Symbol('names variables')

/** Whether the variable of this name is one its author marked as Markdown. */
type IsMarkdown = (name: string) => boolean

const markdownByIndex = new WeakMap<FlowIndex, IsMarkdown>()

/** The flow's variables marked `isMarkdown: true`, by name (the prefill rule reads the same mark). */
function markdownNames(index: FlowIndex): IsMarkdown {
  let known = markdownByIndex.get(index)
  if (!known) {
    const names = new Set([...index.variablesById.values()].filter(isMarkdownVariable).map((variable) => variable.name.trim()))
    known = (name) => names.has(name.trim())
    markdownByIndex.set(index, known)
  }
  return known
}

type Builder = (content: Fields, substitute: Substitute, isMarkdown: IsMarkdown) => Fields | null

const BUILDERS: Record<string, Builder> = {
  text: buildText,
  image(content, substitute) {
    const url = filled(content, 'url', substitute)
    if (!url) return null
    const link = asFields(content.clickLink)
    const linkUrl = filled(link, 'url', substitute)
    const alt = filled(link, 'alt', substitute)
    // `alt` describes the image itself, so it is kept even when the image links nowhere.
    const clickLink = { ...(linkUrl ? { url: linkUrl } : {}), ...(alt ? { alt } : {}) }
    return { url, ...(linkUrl || alt ? { clickLink } : {}) }
  },
  video(content, substitute) {
    const url = filled(content, 'url', substitute)
    const storedId = filled(content, 'id', substitute)
    if (!url && !storedId) return null
    const storedType = readString(content, 'type')
    const source = storedType && storedId ? { type: storedType, id: storedId } : parseVideoUrl(url ?? '')
    const height = toFiniteNumber(content.height)
    const aspectRatio = readString(content, 'aspectRatio')
    return {
      ...(url ? { url } : {}),
      type: source.type,
      ...(source.id ? { id: source.id } : {}),
      ...(height !== undefined ? { height } : {}),
      ...(aspectRatio ? { aspectRatio } : {}),
    }
  },
  audio(content, substitute) {
    const url = filled(content, 'url', substitute)
    if (!url) return null
    const autoplay = readBoolean(content, 'isAutoplayEnabled')
    return { url, ...(autoplay !== undefined ? { isAutoplayEnabled: autoplay } : {}) }
  },
  embed(content, substitute) {
    const url = filled(content, 'url', substitute)
    if (!url) return null
    const height = toFiniteNumber(content.height)
    return { url, ...(height !== undefined ? { height } : {}) }
  },
}

function buildText(content: Fields, substitute: Substitute, isMarkdown: IsMarkdown): Fields | null {
  const html = readString(content, 'html')
  const plain = readString(content, 'plainText')
  let richText = Array.isArray(content.richText) ? mapRichText(content.richText, (t) => substitute(t)) : undefined
  const filledHtml = html !== undefined ? substitute(html, escapeHtml) : undefined
  const plainText =
    plain !== undefined
      ? substitute(plain)
      : richText
        ? richTextToPlainText(richText)
        : filledHtml !== undefined
          ? htmlToPlainText(filledHtml)
          : ''
  if (plainText.trim() === '') return null
  const markdown = Array.isArray(content.richText)
    ? richTextToMarkdown(content.richText, (name) => substitute(`{{${name}}}`), isMarkdown)
    : undefined
  // The widget renders rich text; give it a paragraph when the export only had plain text.
  richText ??= plainText.split('\n').map((line) => ({ type: 'p', children: [{ text: line }] }))
  return { richText, ...(filledHtml !== undefined ? { html: filledHtml } : {}), plainText, ...(markdown !== undefined ? { markdown } : {}) }
}

function filled(fields: Fields, key: string, substitute: Substitute): string | undefined {
  const value = readString(fields, key)
  if (value === undefined) return undefined
  const result = substitute(value).trim()
  return result === '' ? undefined : result
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' }

function htmlToPlainText(html: string): string {
  return (
    html
      .replace(/<br\s*\/?>|<\/(?:p|div|li|h[1-6])>/gi, '\n')
      // `[^<>]`, not `[^>]`: from each `<` the scan stops at the next one, so a run of `<` stays linear.
      .replace(/<[^<>]*>/g, '')
      .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, name: string) => ENTITIES[name] ?? '')
      .trim()
  )
}
