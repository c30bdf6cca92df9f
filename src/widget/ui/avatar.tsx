import { useState } from 'preact/hooks'
import { safeUrl, WEB_SCHEMES } from '../content/url'
import type { Widget } from './widget'

type Side = 'host' | 'guest'
type AvatarConfig = ReturnType<typeof useAvatar>

/**
 * The theme's avatar for one side. Read by the bubble itself, as a signal: @preact/signals then
 * renders the bubble again for a theme change only (see bubbles.tsx).
 */
export const useAvatar = (widget: Widget, side: Side) => widget.conversation.publishedFlow.value?.theme?.chat?.[`${side}Avatar` as const]

/** An emoji or a letter or two, not an address: shown as text. */
const isTextAvatar = (value: string) => !/[/.:{]/.test(value) && [...value].length <= 12

/**
 * The host's or guest's picture beside a bubble, when the theme enables it; an emoji as text; a
 * neutral circle when it has no usable picture or the picture fails to load. A theme address that
 * is still a `{{Variable}}` waits for the step's `dynamicTheme` (never fetched as a path).
 * Decorative: the bubble's side already tells who speaks, so screen readers skip it.
 */
export function Avatar({
  side,
  config,
  url,
  base,
}: {
  side: Side
  config: AvatarConfig
  url?: string | undefined
  base: string | undefined
}) {
  const [broken, setBroken] = useState(false)
  if (config?.isEnabled !== true) return null
  const chosen = (url ?? config.url)?.trim()
  const part = `avatar ${side}-avatar`
  if (chosen && isTextAvatar(chosen)) {
    return (
      <span class="avatar text-avatar" part={part} aria-hidden="true">
        {chosen}
      </span>
    )
  }
  const src = chosen && !chosen.includes('{{') ? safeUrl(chosen, WEB_SCHEMES, base) : undefined
  if (!src || broken) return <span class="avatar" part={part} aria-hidden="true" />
  return <img class="avatar" part={part} src={src} alt="" referrerpolicy="no-referrer" onError={() => setBroken(true)} />
}
