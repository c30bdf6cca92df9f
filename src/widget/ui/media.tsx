import { useEffect, useRef, useState } from 'preact/hooks'
import { WEB_SCHEMES, safeImageUrl, safeUrl } from '../content/url'
import { IMAGE_WAIT_MS } from '../../protocol/time-limits'

type Content = Record<string, unknown>

const str = (value: unknown) => (typeof value === 'string' ? value : undefined)
const webUrl = (value: unknown) => safeUrl(value, WEB_SCHEMES)

/**
 * A picture, optionally linked. Loaded eagerly (a lazy image never loads while its bubble waits
 * hidden); `onSettled` reports when it loaded, failed or took longer than IMAGE_WAIT_MS, which
 * is when its bubble shows. A picture that fails reads as unavailable, never as a broken icon.
 */
export function ImageMessage({ content, onSettled }: { content: Content; onSettled?: (() => void) | undefined }) {
  const [broken, setBroken] = useState(false)
  const image = useRef<HTMLImageElement>(null)
  const src = safeImageUrl(content.url)
  const link = content.clickLink as Content | null | undefined
  const alt = str(link?.alt)?.trim() ?? ''
  useEffect(() => {
    if (!onSettled) return
    const element = image.current
    // Nothing to wait for: no usable address, or a picture the browser already had.
    if (!element || (element.complete && element.naturalWidth > 0)) return onSettled()
    const timer = setTimeout(onSettled, IMAGE_WAIT_MS)
    return () => clearTimeout(timer)
  }, [])
  if (!src || broken) {
    // Stands in for the picture: read out as an image that is unavailable, shown as its alt text.
    const label = alt ? `Image unavailable: ${alt}` : 'Image unavailable'
    return (
      <span class="image-missing" part="image-missing" role="img" aria-label={label}>
        {alt || label}
      </span>
    )
  }
  const picture = (
    <img
      ref={image}
      src={src}
      alt={alt}
      part="image"
      referrerpolicy="no-referrer"
      onLoad={onSettled}
      onError={() => {
        setBroken(true)
        onSettled?.()
      }}
    />
  )
  const href = safeUrl(link?.url)
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {picture}
    </a>
  ) : (
    picture
  )
}

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
