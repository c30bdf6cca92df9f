import type { Ref } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
import { safeUrl, WEB_SCHEMES } from '../content/url'
import type { StringId } from '../i18n/strings'
import { adoptChunkCss } from './chunk-css'
import { css } from './css'
import { ImageMessage } from './image-message'
import type { Widget, WidgetProps } from './widget'

/** The players' look, added to the widget's styles when the first one shows (the core styles pictures only). */
const MEDIA_CSS = css`
.media video { display: block; max-width: 100%; height: auto; border-radius: inherit; }
.media iframe { display: block; width: 100%; border: 0; border-radius: inherit; }
.media audio { display: block; max-width: 100%; }
.bubble.media:has(iframe) { width: 100%; }
`

type Content = Record<string, unknown>
/**
 * A player's props: `anchor` marks its element, through which its chunk's stylesheet is adopted;
 * `base` is the flow service's address, which the flow's relative addresses are relative to.
 */
type PlayerProps = { content: Content; anchor: Ref<HTMLElement>; widget: Widget; onSettled?: (() => void) | undefined }

const VIDEO_ID = /^[\w-]{1,64}$/

/**
 * Embed address for hosted players, from the id the flow gives (never a URL it builds), and the
 * frame's name: distinct per provider, since frames on one page should not share a title.
 */
function hostedPlayer(type: unknown, id: unknown): { src: string; title: StringId } | null {
  if (typeof id !== 'string' || !VIDEO_ID.test(id)) return null
  if (type === 'youtube') return { src: `https://www.youtube-nocookie.com/embed/${id}`, title: 'youtubeVideo' }
  if (type === 'vimeo') return { src: `https://player.vimeo.com/video/${id}`, title: 'vimeoVideo' }
  return null
}

const height = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(2000, Math.max(50, value)) : fallback

export function VideoMessage({ content, anchor, widget: { base, t } }: PlayerProps) {
  const player = hostedPlayer(content.type, content.id)
  if (player) {
    return (
      <iframe
        ref={anchor as Ref<HTMLIFrameElement>}
        src={player.src}
        title={t(player.title)}
        part="video"
        height={height(content.height, 315)}
        allow="fullscreen; picture-in-picture; encrypted-media"
        sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"
        referrerpolicy="strict-origin-when-cross-origin"
        loading="lazy"
      />
    )
  }
  const src = safeUrl(content.url, WEB_SCHEMES, base)
  if (!src) return <span ref={anchor}>{t('videoUnavailable')}</span>
  // biome-ignore lint/a11y/useMediaCaption: a flow's media come as one URL with no caption track to offer; authors describe them in the text around them
  return <video ref={anchor as Ref<HTMLVideoElement>} src={src} controls preload="metadata" part="video" />
}

export function AudioMessage({ content, anchor, widget: { base, t } }: PlayerProps) {
  const src = safeUrl(content.url, WEB_SCHEMES, base)
  if (!src) return <span ref={anchor}>{t('audioUnavailable')}</span>
  return (
    // biome-ignore lint/a11y/useMediaCaption: a flow's media come as one URL with no caption track to offer; authors describe them in the text around them
    <audio
      ref={anchor as Ref<HTMLAudioElement>}
      src={src}
      controls
      autoplay={content.isAutoplayEnabled === true}
      preload="metadata"
      part="audio"
    />
  )
}

/** Third-party content runs in an opaque-origin sandbox: no access to the page, the widget or cookies. */
export function EmbedMessage({ content, anchor, widget: { base, t } }: PlayerProps) {
  const src = safeUrl(content.url, WEB_SCHEMES, base)
  if (!src) return <span ref={anchor}>{t('embedUnavailable')}</span>
  return (
    <iframe
      ref={anchor as Ref<HTMLIFrameElement>}
      src={src}
      title={t('embed')}
      part="embed"
      height={height(content.height, 400)}
      sandbox="allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox"
      referrerpolicy="no-referrer"
      loading="lazy"
    />
  )
}

const PLAYERS = new Map([
  ['image', ImageMessage],
  ['video', VideoMessage],
  ['audio', AudioMessage],
  ['embed', EmbedMessage],
])

/**
 * The media chunk (pictures, players and frames), loaded beside the core script when a flow
 * announces one (see message-content.tsx). `onSettled`: a picture loaded, failed or took too long.
 */
export function MediaPlayer({
  widget,
  message,
  onSettled,
}: WidgetProps & { message: { type: string; content: Content }; onSettled?: (() => void) | undefined }) {
  const anchor = useRef<HTMLElement>(null)
  useLayoutEffect(() => adoptChunkCss(anchor.current, MEDIA_CSS), [])
  const Player = PLAYERS.get(message.type)
  return Player ? <Player content={message.content} anchor={anchor} widget={widget} onSettled={onSettled} /> : null
}
