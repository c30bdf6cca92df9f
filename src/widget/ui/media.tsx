import { WEB_SCHEMES, safeUrl } from '../content/url'

type Content = Record<string, unknown>

const webUrl = (value: unknown) => safeUrl(value, WEB_SCHEMES)

const VIDEO_ID = /^[\w-]{1,64}$/

/**
 * Embed address for hosted players, from the id the flow gives (never a URL it builds), and the
 * frame's name: distinct per provider, since frames on one page should not share a title.
 */
function hostedPlayer(type: unknown, id: unknown): { src: string; title: string } | null {
  if (typeof id !== 'string' || !VIDEO_ID.test(id)) return null
  if (type === 'youtube') return { src: `https://www.youtube-nocookie.com/embed/${id}`, title: 'YouTube video' }
  if (type === 'vimeo') return { src: `https://player.vimeo.com/video/${id}`, title: 'Vimeo video' }
  return null
}

const height = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(2000, Math.max(50, value)) : fallback

export function VideoMessage({ content }: { content: Content }) {
  const player = hostedPlayer(content.type, content.id)
  if (player) {
    return (
      <iframe
        src={player.src}
        title={player.title}
        part="video"
        height={height(content.height, 315)}
        allow="fullscreen; picture-in-picture; encrypted-media"
        sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"
        referrerpolicy="strict-origin-when-cross-origin"
        loading="lazy"
      />
    )
  }
  const src = webUrl(content.url)
  if (!src) return <span>Video unavailable</span>
  return <video src={src} controls preload="metadata" part="video" />
}

export function AudioMessage({ content }: { content: Content }) {
  const src = webUrl(content.url)
  if (!src) return <span>Audio unavailable</span>
  return <audio src={src} controls autoplay={content.isAutoplayEnabled === true} preload="metadata" part="audio" />
}

/** Third-party content runs in an opaque-origin sandbox: no access to the page, the widget or cookies. */
export function EmbedMessage({ content }: { content: Content }) {
  const src = webUrl(content.url)
  if (!src) return <span>Embedded content unavailable</span>
  return (
    <iframe
      src={src}
      title="Embedded content"
      part="embed"
      height={height(content.height, 400)}
      sandbox="allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox"
      referrerpolicy="no-referrer"
      loading="lazy"
    />
  )
}

const PLAYERS = new Map([
  ['video', VideoMessage],
  ['audio', AudioMessage],
  ['embed', EmbedMessage],
])

/** The media chunk (players and frames), loaded beside the core script when a flow announces one (see message-content.tsx). */
export function MediaPlayer({ message }: { message: { type: string; content: Content } }) {
  const Player = PLAYERS.get(message.type)
  return Player ? <Player content={message.content} /> : null
}
