import { signal } from '@preact/signals'
import type { RefObject } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
import { widgetWarning, type Emit } from '../chat/index'
import type { CssValidator } from '../content/css'
import type { applyThemeVars } from './theme/theme-vars'

/** The theme's translation to custom properties, once its chunk is here. */
const apply = signal<typeof applyThemeVars | null>(null)
let loading: Promise<void> | undefined

/**
 * Requests the theme chunk (once; again after a failure). Called as a chat mounts, so it loads
 * while the published flow is on its way: the theme applies as soon as both are here.
 */
function loadThemeChunk(emit: Emit): void {
  loading ??= import('./theme/theme-vars').then(
    (chunk) => void (apply.value = chunk.applyThemeVars),
    (error: unknown) => {
      loading = undefined
      emit('flowchat:log', { ...widgetWarning('chunk-load-failed', 'The theme could not be loaded', { error: String(error) }), status: 'error' })
    },
  )
}

/**
 * Applies the theme's custom properties to the widget's root element (see `applyThemeVars`).
 * Until the theme chunk is here (or if it cannot load) the default look stays.
 */
export function useThemeVars(target: RefObject<HTMLElement | null>, theme: unknown, isValid: CssValidator | undefined, emit: Emit): void {
  const applied = useRef<string[]>([])
  const applyVars = apply.value
  useLayoutEffect(() => loadThemeChunk(emit), [])
  useLayoutEffect(() => {
    if (target.current && applyVars) applied.current = applyVars(target.current, theme, isValid, applied.current, emit)
  }, [theme, applyVars])
}
