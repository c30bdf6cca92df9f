import type { ChatMessage } from '../../protocol/index'
import { renderRichText } from '../content/rich-text'
import { HtmlContent } from './html-content'
import { AudioMessage, EmbedMessage, ImageMessage, VideoMessage } from './media'

type Content = Record<string, unknown>

export const isMediaMessage = (message: ChatMessage) => message.type !== 'text'

/**
 * A host message's body: richText as elements, else sanitised html, else plain text.
 * `onSettled` hears when an image has loaded or failed (see ImageMessage).
 */
export function MessageContent({ message, onSettled }: { message: ChatMessage; onSettled?: () => void }) {
  const content: Content = typeof message.content === 'object' && message.content !== null ? (message.content as Content) : {}
  switch (message.type) {
    case 'text': {
      if (Array.isArray(content.richText) && content.richText.length > 0) {
        return <div class="rt">{renderRichText(content.richText)}</div>
      }
      if (typeof content.html === 'string' && content.html.trim()) return <HtmlContent html={content.html} />
      return <>{typeof content.plainText === 'string' ? content.plainText : ''}</>
    }
    case 'image':
      return <ImageMessage content={content} onSettled={onSettled} />
    case 'video':
      return <VideoMessage content={content} />
    case 'audio':
      return <AudioMessage content={content} />
    case 'embed':
      return <EmbedMessage content={content} />
    default:
      return null
  }
}
