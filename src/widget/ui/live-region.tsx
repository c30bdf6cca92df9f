import { useRef } from 'preact/hooks'
import type { HostEntry } from '../chat/index'
import type { ChatMessage } from '../../protocol/index'
import { messageText } from '../content/plain-text'
import { isImagePending } from './image-reveal'
import { useWidget } from './widget-context'

/** Announcements kept in the region: enough for a burst of bubbles, bounded in size. */
const KEPT = 3

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
 * The host entries to announce, in order, each once. A message waits while a picture before it
 * is still loading, as it does on screen, so nothing is read out before it can be seen.
 */
function useAnnounced(recent: readonly HostEntry[]): readonly HostEntry[] {
  const state = useRef({ seen: new WeakSet<HostEntry>(), waiting: [] as HostEntry[], shown: [] as readonly HostEntry[] }).current
  if (recent.length === 0) {
    // A restart cleared the conversation.
    state.waiting = []
    state.shown = []
  }
  for (const entry of recent) {
    if (state.seen.has(entry)) continue
    state.seen.add(entry)
    state.waiting.push(entry)
  }
  let ready = 0
  while (ready < state.waiting.length && !isImagePending(state.waiting[ready]!)) ready++
  if (ready > 0) {
    // Everything released at once is added at once (more than KEPT if a picture held it back).
    const released = state.waiting.splice(0, ready)
    state.shown = [...state.shown, ...released].slice(-Math.max(KEPT, released.length))
  }
  return state.shown
}

/**
 * A polite live region that announces each new host message once. Each message is its own node
 * (added, never rewritten), so screen readers queue a burst of bubbles instead of dropping all but
 * the last; older nodes leave as newer ones arrive.
 */
export function LiveRegion() {
  const { conversation } = useWidget()
  const announced = useAnnounced(conversation.transcript.recentHosts.value)
  return (
    <div class="sr-only" part="live-region" aria-live="polite" aria-relevant="additions" aria-atomic="false">
      {announced.map((entry) => (
        <p key={entry.key}>{announcement(entry.message)}</p>
      ))}
    </div>
  )
}
