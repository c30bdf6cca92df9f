import { useEffect } from 'preact/hooks'
import type { ChatMessage } from '../../protocol/index'
import { htmlToPlain, withHtmlReader } from '../content/plain-text'
import { renderRichText } from '../content/rich-text'
import type { StringId } from '../i18n/strings'
import { type LazyView, lazyView } from './lazy-view'
import type { WidgetProps } from './widget'

type Content = Record<string, unknown>

/** Pictures and players: a chunk of their own, requested with a published flow that shows them (preload-views.ts). */
const players = lazyView('media player', () => import('./media').then((chunk) => chunk.MediaPlayer))
/** DOMPurify and the widget's allow-lists: a chunk of their own, shared by html messages and AI answers. */
const sanitizer = () => import('../content/purify').then((chunk) => chunk.createSanitizer)
const html = lazyView(
  'HTML sanitizer',
  () => Promise.all([withHtmlReader(import('./html')), sanitizer()]).then(([chunk, create]) => chunk.bindHtmlContent(create)),
  'content-load-failed',
)

let answerViews: ReturnType<typeof loadAnswerViews> | undefined
const loadAnswerViews = () =>
  Promise.all([import('./streamed-answer'), sanitizer()]).then(([chunk, create]) => chunk.bindAnswerViews(create))
/** The Markdown views of AI answers (streaming, and finished), made once; a failed load is tried again. */
const answers = () =>
  (answerViews ??= loadAnswerViews().catch((error: unknown) => {
    answerViews = undefined
    throw error
  }))
export const streamedAnswerView = lazyView('answer view', () => answers().then((views) => views.StreamedAnswerView))
const markdownView = lazyView('answer view', () => answers().then((views) => views.MarkdownView), 'content-load-failed')

/** Messages whose view is a lazily loaded chunk, by type. */
export const MESSAGE_CHUNKS: ReadonlyMap<string, Pick<LazyView<never>, 'preload'>> = new Map([
  ['image', players],
  ['video', players],
  ['audio', players],
  ['embed', players],
])

const contentOf = (message: ChatMessage): Content =>
  typeof message.content === 'object' && message.content !== null ? (message.content as Content) : {}

const hasRichText = (content: Content): content is Content & { richText: unknown[] } =>
  Array.isArray(content.richText) && content.richText.length > 0
/**
 * The Markdown of a text: an AI answer the widget streamed (its text is Markdown), or a bubble
 * whose variables hold Markdown (`markdown`, from the service).
 */
const markdownOf = (content: Content): string | undefined =>
  typeof content.markdown === 'string'
    ? content.markdown
    : content.format === 'markdown' && typeof content.plainText === 'string'
      ? content.plainText
      : undefined

/** Requests the chunk a message will need: its player, or the sanitizer of an html-only text. */
export function preloadMessageView(message: ChatMessage): void {
  MESSAGE_CHUNKS.get(message.type)?.preload()
  const content = contentOf(message)
  if (markdownOf(content) !== undefined) markdownView.preload()
  if (message.type === 'text' && !hasRichText(content) && typeof content.html === 'string' && content.html.trim()) html.preload()
}

const UNAVAILABLE = new Map<unknown, StringId>([
  ['image', 'imageUnavailable'],
  ['video', 'videoUnavailable'],
  ['audio', 'audioUnavailable'],
  ['embed', 'embedUnavailable'],
])

export const isMediaMessage = (message: ChatMessage) => message.type !== 'text'

/**
 * A host message's body: richText as elements, else sanitised html, else plain text.
 * `onSettled` hears when an image has loaded or failed (see ImageMessage).
 */
export function MessageContent({ widget, message, onSettled }: WidgetProps & { message: ChatMessage; onSettled?: () => void }) {
  const content = contentOf(message)
  switch (message.type) {
    case 'text': {
      const markdown = markdownOf(content)
      if (markdown !== undefined) {
        // Until the sanitiser is here, and if it cannot load: the rich text (values as plain text), else the source.
        const text = hasRichText(content) ? <div class="rt">{renderRichText(content.richText)}</div> : <span>{markdown}</span>
        return <markdownView.View widget={widget} text={markdown} loading={text} fallback={text} />
      }
      if (hasRichText(content)) {
        return <div class="rt">{renderRichText(content.richText)}</div>
      }
      if (typeof content.html === 'string' && content.html.trim()) {
        // Its text until the sanitizer is here, and if it cannot load.
        const text = <span>{htmlToPlain(content.html)}</span>
        return <html.View widget={widget} html={content.html} loading={text} fallback={text} />
      }
      return <>{typeof content.plainText === 'string' ? content.plainText : ''}</>
    }
    default: {
      const unavailable = UNAVAILABLE.get(message.type)
      const fallback = <Unavailable text={unavailable && widget.t(unavailable)} onSettled={onSettled} />
      return unavailable ? (
        <players.View widget={widget} message={{ type: message.type, content }} onSettled={onSettled} fallback={fallback} />
      ) : null
    }
  }
}

/** In place of a picture or player whose chunk could not load; a picture settles, so the bubbles after it show. */
function Unavailable({ text, onSettled }: { text: string | undefined; onSettled: (() => void) | undefined }) {
  useEffect(() => onSettled?.(), [])
  return <span>{text}</span>
}
