import { useEffect, useRef, useState } from 'preact/hooks'
import { IMAGE_WAIT_MS } from '../../protocol/time-limits'
import { safeImageUrl, safeUrl } from '../content/url'
import type { WidgetProps } from './widget'

type Content = Record<string, unknown>

const str = (value: unknown) => (typeof value === 'string' ? value : undefined)

/**
 * A picture, optionally linked. Loaded eagerly (a lazy image never loads while its bubble waits
 * hidden); `onSettled` reports when it loaded, failed or took longer than IMAGE_WAIT_MS, which
 * is when its bubble shows. A picture that fails reads as unavailable, never as a broken icon.
 */
export function ImageMessage({
  content,
  widget: { base, t },
  onSettled,
}: WidgetProps & { content: Content; onSettled?: (() => void) | undefined }) {
  const [broken, setBroken] = useState(false)
  const image = useRef<HTMLImageElement>(null)
  const src = safeImageUrl(content.url, base)
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
    const label = alt ? t('imageUnavailableAlt', { alt }) : t('imageUnavailable')
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
