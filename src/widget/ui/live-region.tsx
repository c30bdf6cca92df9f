import { useRef } from 'preact/hooks'
import { type AgentEntry, type HostEntry, isWaitingForWebhook, type Transcript } from '../chat/index'
import { awaitsHtmlReader, messageText } from '../content/plain-text'
import type { StringId } from '../i18n/strings'
import { isImagePending } from './image-reveal'
import type { Widget, WidgetProps } from './widget'

/** Announcements kept in the region after they were read: a little history, bounded in size. */
const KEPT = 3

/** What a media message is called when it arrives. */
const MEDIA_NAMES = new Map<unknown, StringId>([
  ['image', 'image'],
  ['video', 'video'],
  ['audio', 'audio'],
  ['embed', 'embed'],
])

/** Markdown marks a screen reader would spell out ("star star"): an AI answer is read without them. */
const MARKS = /\*\*|__|`+|^#{1,6}\s|^>\s?/gm

/** What is read out for an entry: a host message, or a line of a person (with their name) or the service. */
function announcement(entry: Announced, t: Widget['t']): string {
  if (entry.kind === 'agent') return entry.agent ? `${entry.agent.name}: ${entry.text.replace(MARKS, '').trim()}` : entry.text
  const { message } = entry
  const markdown = (message.content as { format?: unknown } | undefined)?.format === 'markdown'
  const text = (markdown ? messageText(message).replace(MARKS, '') : messageText(message)).trim()
  const media = MEDIA_NAMES.get(message.type)
  if (!media) return text
  return text ? `${t(media)}: ${text}` : t(media)
}

/** The entries read out: the flow's messages, and a person's lines in a handoff. */
type Announced = HostEntry | AgentEntry

interface Announcer {
  /** The transcript's epoch these entries belong to: a restart begins a new one. */
  epoch: number
  /** Transcript entries looked at so far. */
  read: number
  /** Messages not yet announced: a picture before them is still loading. */
  waiting: Announced[]
  /** The nodes in the region: the newest announcements. */
  shown: readonly Announced[]
}

/**
 * Every host message of the transcript, each announced once, in order, however many arrive at
 * once. A message waits while a picture before it is still loading, as it does on screen, so
 * nothing is read out before it can be seen. Messages restored from a remembered conversation
 * were read out on the earlier page and are not announced again.
 */
function useAnnouncements(transcript: Transcript): readonly Announced[] {
  const state = useRef<Announcer>({ epoch: transcript.epoch, read: 0, waiting: [], shown: [] }).current
  const count = transcript.count.value
  if (state.epoch !== transcript.epoch) Object.assign(state, { epoch: transcript.epoch, read: 0, waiting: [], shown: [] })
  for (; state.read < count; state.read++) {
    const entry = transcript.at(state.read)
    if ((entry?.kind === 'host' || entry?.kind === 'agent') && !entry.restored) state.waiting.push(entry)
  }
  let ready = 0
  // An AI answer is read out once, complete: never piece by piece; an html-only message once its
  // words are known (see awaitsHtmlReader).
  for (; ready < state.waiting.length; ready++) {
    const entry = state.waiting[ready]!
    if (
      entry.kind === 'host' &&
      (isImagePending(entry) || awaitsHtmlReader(entry.message) || (entry.stream?.status.value ?? 'done') !== 'done')
    )
      break
  }
  if (ready > 0) {
    // Everything released at once is added at once, however many (older nodes leave instead).
    const released = state.waiting.splice(0, ready)
    state.shown = [...state.shown, ...released].slice(-Math.max(KEPT, released.length))
  }
  return state.shown
}

/**
 * What the chat's polite live region says (the region itself is the core's, there from the start as
 * screen readers need): each new host message once, each line of a person the chat was handed to
 * once (with their name), and that the chat is waiting for an outside system (a wait-for-webhook
 * block) when it is, and that the visitor started over. (The handoff's own status line says where it stands.) Each message is its own node (added, never
 * rewritten), so screen readers queue a burst of bubbles instead of dropping all but the last;
 * older nodes leave as newer ones arrive. Part of the views' chunk; placed just after the region, it
 * announces every message of the conversation not yet read out, in order.
 */
export function Announcements({ widget: { conversation, t } }: WidgetProps) {
  const announced = useAnnouncements(conversation.transcript)
  return (
    <>
      {announced.map((entry) => (
        <p key={entry.key}>{announcement(entry, t)}</p>
      ))}
      {isWaitingForWebhook(conversation.stage.value) && <p key="waiting">{t('waiting')}</p>}
      {conversation.notice.value === 'requested' && <p key="started-over">{t('restartRequested')}</p>}
    </>
  )
}
