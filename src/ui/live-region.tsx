import type { ChatMessage } from '../protocol/index'
import { messageText } from '../content/plain-text'
import { useWidget } from './widget-context'

const MEDIA_NAMES = new Map([
  ['image', 'Image'],
  ['video', 'Video'],
  ['audio', 'Audio'],
  ['embed', 'Embedded content'],
])

function announcement(message: ChatMessage): string {
  const text = messageText(message).trim()
  const media = MEDIA_NAMES.get(message.type)
  if (!media) return text
  return text ? `${media}: ${text}` : media
}

/**
 * A polite live region that announces each new host message once. Each message is its own node
 * (added, never rewritten), so screen readers queue a burst of bubbles instead of dropping all but
 * the last; older nodes leave as newer ones arrive.
 */
export function LiveRegion() {
  const { conversation } = useWidget()
  return (
    <div class="sr-only" part="live-region" aria-live="polite" aria-relevant="additions" aria-atomic="false">
      {conversation.transcript.recentHosts.value.map((entry) => (
        <p key={entry.key}>{announcement(entry.message)}</p>
      ))}
    </div>
  )
}
