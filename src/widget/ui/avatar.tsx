import { useState } from 'preact/hooks'
import { WEB_SCHEMES, safeUrl } from '../content/url'
import type { Widget } from './widget'

type Side = 'host' | 'guest'
type AvatarConfig = ReturnType<typeof useAvatar>

/**
 * The theme's avatar for one side. Read by the bubble itself, as a signal: @preact/signals then
 * renders the bubble again for a theme change only (see bubbles.tsx).
 */
export const useAvatar = (widget: Widget, side: Side) => widget.conversation.publishedFlow.value?.theme?.chat?.[`${side}Avatar` as const]

/**
 * The host's or guest's picture beside a bubble, when the theme enables it; a neutral circle when
 * it has no usable picture or the picture fails to load. Decorative: the bubble's side already
 * tells who speaks, so screen readers skip it.
 */
export function Avatar({ side, config, url, base }: { side: Side; config: AvatarConfig; url?: string | undefined; base: string | undefined }) {
  const [broken, setBroken] = useState(false)
  if (config?.isEnabled !== true) return null
  const src = safeUrl(url ?? config.url, WEB_SCHEMES, base)
  const part = `avatar ${side}-avatar`
  if (!src || broken) return <span class="avatar" part={part} aria-hidden="true" />
  return <img class="avatar" part={part} src={src} alt="" referrerpolicy="no-referrer" onError={() => setBroken(true)} />
}
