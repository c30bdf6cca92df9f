import type { RefObject } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
import { readableIssues } from '../../../protocol/issues'
import { type StyleBox, type Theme, themeSchema } from '../../../protocol/theme'
import { type Emit, widgetWarning } from '../../chat/index'
import { browserCssValidator, type CssValidator, clampNumber, cssValue, withOpacity } from '../../content/css'
import { safeUrl, WEB_SCHEMES } from '../../content/url'
import type { WidgetProps } from '../widget'
import { fontFamilyValue } from './font'
import { schemeVars } from './scheme'

export interface ThemeVars {
  /** Private custom properties (`--fct-*`); the stylesheet lets public `--fc-*` ones win over them. */
  vars: Record<string, string>
  /** Theme paths whose values were invalid or unsafe and were ignored. */
  rejected: string[]
}

// Maps, not object literals: a theme value like "constructor" must not find a prototype member.
const SHADOWS = new Map([
  ['none', 'none'],
  ['sm', '0 1px 2px 0 rgb(0 0 0 / 0.05)'],
  ['md', '0 4px 6px -1px rgb(0 0 0 / 0.1), 0 2px 4px -2px rgb(0 0 0 / 0.1)'],
  ['lg', '0 10px 15px -3px rgb(0 0 0 / 0.1), 0 4px 6px -4px rgb(0 0 0 / 0.1)'],
  ['xl', '0 20px 25px -5px rgb(0 0 0 / 0.1), 0 8px 10px -6px rgb(0 0 0 / 0.1)'],
  ['2xl', '0 25px 50px -12px rgb(0 0 0 / 0.25)'],
])

const RADII = new Map([
  ['none', '0px'],
  ['medium', '6px'],
  ['large', '20px'],
])

function radius(roundness: unknown, custom: unknown): string | undefined {
  if (roundness === 'custom') {
    const px = clampNumber(custom, 0, 200)
    return px === undefined ? undefined : `${px}px`
  }
  return typeof roundness === 'string' ? RADII.get(roundness) : undefined
}

/**
 * Turns the flow's theme into custom properties. Every value is checked (a safe character set,
 * then the browser's CSS parser) and applied only through `style.setProperty`, so no theme value
 * can leave its declaration, reach the host page or inject markup. Part of the views' chunk (with
 * the CSS checks): the views never paint without it, so no bubble shows in the default colours.
 */
export function themeVars(theme: Theme | null | undefined, isValid: CssValidator = browserCssValidator, flowBase?: string): ThemeVars {
  const vars: Record<string, string> = {}
  const rejected: string[] = []
  const take = (path: string, name: string, raw: unknown, property: string, wrap?: (value: string) => string) => {
    if (raw === undefined || raw === null || raw === '') return undefined
    const value = cssValue(raw, property, isValid)
    if (value === undefined) rejected.push(path)
    else vars[name] = wrap ? wrap(value) : value
    return value
  }

  const general = theme?.general
  const font = fontFamilyValue(general?.font)
  if (font) vars['--fct-font-family'] = font

  const background = general?.background
  if (background?.type === 'None') vars['--fct-background'] = 'transparent'
  else if (background?.type === 'Color') take('general.background.content', '--fct-background', background.content, 'color')
  else if (background?.type === 'Image' && background.content) {
    const url = safeUrl(background.content, WEB_SCHEMES, flowBase)
    const value = url ? `url("${url}") center / cover no-repeat` : undefined
    if (value && isValid('background', value)) vars['--fct-background'] = value
    else rejected.push('general.background.content')
  }

  const progress = general?.progressBar
  take('general.progressBar.color', '--fct-progress-color', progress?.color, 'color')
  take('general.progressBar.backgroundColor', '--fct-progress-track', progress?.backgroundColor, 'color')
  const thickness = clampNumber(progress?.thickness, 0, 40)
  if (thickness !== undefined) vars['--fct-progress-thickness'] = `${thickness}px`

  const chat = theme?.chat
  const base = radius(chat?.roundness, undefined)
  if (base) vars['--fct-radius'] = base
  const box = (name: string, path: string, style: StyleBox | null | undefined) => {
    if (!style) return
    const opacity = clampNumber(style.opacity, 0, 1)
    take(`${path}.backgroundColor`, `--fct-${name}-bg`, style.backgroundColor, 'color', (c) => withOpacity(c, opacity, isValid))
    take(`${path}.color`, `--fct-${name}-color`, style.color, 'color')
    const blur = clampNumber(style.blur, 0, 100)
    if (blur) vars[`--fct-${name}-blur`] = `blur(${blur}px)`
    const shadow = typeof style.shadow === 'string' ? SHADOWS.get(style.shadow) : undefined
    if (shadow) vars[`--fct-${name}-shadow`] = shadow
    const border = style.border
    if (!border) return
    const width = clampNumber(border.thickness, 0, 20)
    if (width !== undefined) vars[`--fct-${name}-border-width`] = `${width}px`
    const borderOpacity = clampNumber(border.opacity, 0, 1)
    take(`${path}.border.color`, `--fct-${name}-border-color`, border.color, 'color', (c) => withOpacity(c, borderOpacity, isValid))
    const corner = radius(border.roundeness, border.customRoundeness)
    if (corner) vars[`--fct-${name}-radius`] = corner
  }
  box('container', 'chat.container', chat?.container)
  take('chat.container.maxWidth', '--fct-container-max-width', chat?.container?.maxWidth, 'max-width')
  take('chat.container.maxHeight', '--fct-container-max-height', chat?.container?.maxHeight, 'max-height')
  box('host-bubble', 'chat.hostBubbles', chat?.hostBubbles)
  box('guest-bubble', 'chat.guestBubbles', chat?.guestBubbles)
  box('button', 'chat.buttons', chat?.buttons)
  box('input', 'chat.inputs', chat?.inputs)
  take('chat.inputs.placeholderColor', '--fct-input-placeholder', chat?.inputs?.placeholderColor, 'color')
  return { vars, rejected }
}

/**
 * Sets the theme's custom properties on `element` with `style.setProperty` (CSSOM, allowed under
 * `style-src 'self'`), removing those of `previous` the theme no longer sets; returns what it set.
 * The core checked only the theme's layout (transport/client.ts): its look is validated here, and
 * a theme this widget cannot read leaves the default look.
 */
export function applyThemeVars(
  element: HTMLElement,
  theme: unknown,
  isValid: CssValidator | undefined,
  previous: readonly string[],
  emit: Emit,
  base?: string,
  scheme: 'light' | 'dark' = 'light',
): string[] {
  const parsed = themeSchema.safeParse(theme ?? {})
  const { vars, rejected } = parsed.success
    ? themeVars(parsed.data, isValid, base)
    : { vars: {}, rejected: readableIssues(parsed.error).map((issue) => issue.path) }
  Object.assign(vars, schemeVars(vars, scheme))
  for (const name of previous) if (!(name in vars)) element.style.removeProperty(name)
  for (const [name, value] of Object.entries(vars)) element.style.setProperty(name, value)
  if (rejected.length > 0) {
    emit('flowchat:log', widgetWarning('invalid-theme-value', 'Some theme values were invalid and were ignored', { paths: rejected }))
  }
  return Object.keys(vars)
}

/** Whether the visitor's system asks for dark colours (`auto`), from the media query. */
const DARK_QUERY = '(prefers-color-scheme: dark)'

/**
 * Applies the theme's custom properties to the widget's root element (renders nothing), before
 * the frame paints, for the colour scheme in use (`scheme`: `auto` follows the visitor's system,
 * also when it changes). Until the published flow is here the default look stays.
 */
export function ThemeVarsView({
  widget: { emit, base },
  target,
  theme,
  isValid,
  scheme,
}: WidgetProps & { target: RefObject<HTMLElement | null>; theme: unknown; isValid: CssValidator | undefined; scheme: string | undefined }) {
  const applied = useRef<string[]>([])
  useLayoutEffect(() => {
    const media = scheme === 'auto' && typeof matchMedia === 'function' ? matchMedia(DARK_QUERY) : undefined
    const apply = () => {
      const dark = scheme === 'dark' || media?.matches === true
      if (target.current)
        applied.current = applyThemeVars(target.current, theme, isValid, applied.current, emit, base, dark ? 'dark' : 'light')
    }
    apply()
    media?.addEventListener('change', apply)
    return () => media?.removeEventListener('change', apply)
  }, [theme, scheme])
  return null
}
