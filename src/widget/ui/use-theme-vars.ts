import { signal } from '@preact/signals'
import type { RefObject } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
import type { Theme } from '../../protocol/index'
import { widgetWarning, type Emit } from '../chat/index'
import type { CssValidator } from '../content/css'
import type { themeVars } from './theme/theme-vars'

/** The theme's translation to custom properties, once its chunk is here. */
const translate = signal<typeof themeVars | null>(null)
let loading: Promise<void> | undefined

/**
 * Requests the theme chunk (once; again after a failure). Called as a chat mounts, so it loads
 * while the published flow is on its way: the theme applies as soon as both are here.
 */
function loadThemeChunk(emit: Emit): void {
  loading ??= import('./theme/theme-vars').then(
    (chunk) => void (translate.value = chunk.themeVars),
    (error: unknown) => {
      loading = undefined
      emit('flowchat:log', { ...widgetWarning('chunk-load-failed', 'The theme could not be loaded', { error: String(error) }), status: 'error' })
    },
  )
}

/**
 * Applies the theme's custom properties to the widget's root element with `style.setProperty`
 * (CSSOM, allowed under `style-src 'self'`), removing those the new theme no longer sets.
 * Until the theme chunk is here (or if it cannot load) the default look stays.
 */
export function useThemeVars(
  target: RefObject<HTMLElement | null>,
  theme: Theme | null | undefined,
  isValid: CssValidator | undefined,
  emit: Emit,
): void {
  const applied = useRef<string[]>([])
  const toVars = translate.value
  useLayoutEffect(() => loadThemeChunk(emit), [])
  useLayoutEffect(() => {
    const element = target.current
    if (!element || !toVars) return
    const { vars, rejected } = toVars(theme, isValid)
    for (const name of applied.current) if (!(name in vars)) element.style.removeProperty(name)
    for (const [name, value] of Object.entries(vars)) element.style.setProperty(name, value)
    applied.current = Object.keys(vars)
    if (rejected.length > 0) {
      emit('flowchat:log', widgetWarning('invalid-theme-value', 'Some theme values were invalid and were ignored', { paths: rejected }))
    }
  }, [theme, toVars])
}
