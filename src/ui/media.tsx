import { useState } from 'preact/hooks'
import { WEB_SCHEMES, safeImageUrl, safeUrl } from '../content/url'

type Content = Record<string, unknown>

const str = (value: unknown) => (typeof value === 'string' ? value : undefined)
const webUrl = (value: unknown) => safeUrl(value, WEB_SCHEMES)

export function ImageMessage({ content }: { content: Content }) {
  const [broken, setBroken] = useState(false)
  const src = safeImageUrl(content.url)
  const link = content.clickLink as Content | null | undefined
  const alt = str(link?.alt) ?? ''
  if (!src || broken) return <span>{alt || 'Image unavailable'}</span>
  const image = (
    <img src={src} alt={alt} part="image" loading="lazy" referrerpolicy="no-referrer" onError={() => setBroken(true)} />
  )
  const href = safeUrl(link?.url)
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {image}
    </a>
  ) : (
    image
  )
}

const VIDEO_ID = /^[\w-]{1,64}$/

/** Embed address for hosted players, from the id the flow gives (never a URL it builds). */
function playerUrl(type: unknown, id: unknown): string | null {
  if (typeof id !== 'string' || !VIDEO_ID.test(id)) return null
  if (type === 'youtube') return `https://www.youtube-nocookie.com/embed/${id}`
  if (type === 'vimeo') return `https://player.vimeo.com/video/${id}`
  return null
}

const height = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(2000, Math.max(50, value)) : fallback

export function VideoMessage({ content }: { content: Content }) {
  const player = playerUrl(content.type, content.id)
  if (player) {
    return (
      <iframe
        src={player}
        title="Video"
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
