import type { RefObject } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
import type { Theme } from '../../protocol/index'
import { widgetWarning, type Emit } from '../chat/index'
import type { CssValidator } from '../content/css'
import { themeVars } from './theme/theme-vars'

/**
 * Applies the theme's custom properties to the widget's root element with `style.setProperty`
 * (CSSOM, allowed under `style-src 'self'`), removing those the new theme no longer sets.
 */
export function useThemeVars(
  target: RefObject<HTMLElement | null>,
  theme: Theme | null | undefined,
  isValid: CssValidator,
  emit: Emit,
): void {
  const applied = useRef<string[]>([])
  useLayoutEffect(() => {
    const element = target.current
    if (!element) return
    const { vars, rejected } = themeVars(theme, isValid)
    for (const name of applied.current) if (!(name in vars)) element.style.removeProperty(name)
    for (const [name, value] of Object.entries(vars)) element.style.setProperty(name, value)
    applied.current = Object.keys(vars)
    if (rejected.length > 0) {
      emit('flowchat:log', widgetWarning('invalid-theme-value', 'Some theme values were invalid and were ignored', { paths: rejected }))
    }
  }, [theme])
}
