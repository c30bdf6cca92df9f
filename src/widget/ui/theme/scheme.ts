/**
 * The colour schemes, from a flow's theme: the dark scheme's colours where the theme sets none, and
 * contrast where the theme sets one colour of a pair and leaves the other to the widget (the colour
 * left unset is chosen to read on the one set). The owner's colours always win. Each default pair
 * meets WCAG AA (4.5:1), and the accent and the focus ring 3:1 on the background.
 */

/**
 * A colour as red, green and blue (0–255), when the value is one this can read (hex, `rgb()`,
 * inside `color-mix()`, or what a canvas makes of it); not `transparent`, which shows the page.
 */
export function rgbOf(value: string): [number, number, number] | undefined {
  if (/^transparent$/i.test(value.trim())) return undefined
  const hex = /#([\da-f]{3,8})\b/i.exec(value)?.[1]
  if (hex && (hex.length === 3 || hex.length === 4))
    return [0, 1, 2].map((i) => parseInt(hex[i]! + hex[i]!, 16)) as [number, number, number]
  if (hex && (hex.length === 6 || hex.length === 8))
    return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number]
  const rgb = /rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/i.exec(value)
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])]
  // A named or otherwise written colour: the browser's canvas writes it as hex.
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext?.('2d')
  if (!context) return undefined
  context.fillStyle = '#010203'
  context.fillStyle = value
  return context.fillStyle === '#010203' ? undefined : rgbOf(String(context.fillStyle))
}

/** WCAG relative luminance. */
const luminance = ([r, g, b]: [number, number, number]) => {
  const linear = (channel: number) => {
    const c = channel / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
}

/** WCAG contrast ratio of two colours (1 to 21); 0 when either cannot be read. */
export function contrast(a: string, b: string): number {
  const [x, y] = [rgbOf(a), rgbOf(b)]
  if (!x || !y) return 0
  const [light, dark] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

const LIGHT_TEXT = '#ffffff'
const DARK_TEXT = '#303235'

/**
 * Each pair: the property behind, the one in front, the contrast it needs, and the colours the
 * widget may choose for the side the theme leaves unset (the current scheme's default first).
 */
interface Pair {
  back: string
  front: string
  ratio: number
  backs: { light: string[]; dark: string[] }
  fronts: string[]
}

const texts = [DARK_TEXT, LIGHT_TEXT]
const PAIRS: Pair[] = [
  { back: 'background', front: 'container-color', ratio: 4.5, backs: { light: ['#ffffff'], dark: ['#15171b', '#ffffff'] }, fronts: texts },
  {
    back: 'host-bubble-bg',
    front: 'host-bubble-color',
    ratio: 4.5,
    backs: { light: ['#eef1f6', '#262a31'], dark: ['#262a31', '#eef1f6'] },
    fronts: texts,
  },
  {
    back: 'guest-bubble-bg',
    front: 'guest-bubble-color',
    ratio: 4.5,
    backs: { light: ['#0042da', '#eef1f6'], dark: ['#3563e9', '#eef1f6', '#262a31'] },
    fronts: texts,
  },
  {
    back: 'button-bg',
    front: 'button-color',
    ratio: 4.5,
    backs: { light: ['#0042da', '#eef1f6'], dark: ['#3563e9', '#eef1f6', '#262a31'] },
    fronts: texts,
  },
  {
    back: 'input-bg',
    front: 'input-color',
    ratio: 4.5,
    backs: { light: ['#ffffff', '#1d2026'], dark: ['#1d2026', '#ffffff'] },
    fronts: texts,
  },
  { back: 'input-bg', front: 'input-placeholder', ratio: 4.5, backs: { light: [], dark: [] }, fronts: ['#6b7280', '#9aa0a8'] },
  // Drawn on the background: the focus ring (3:1, as any boundary) and error text.
  { back: 'background', front: 'focus-ring', ratio: 3, backs: { light: [], dark: [] }, fronts: ['#0042da', '#8ab4ff'] },
  { back: 'background', front: 'error', ratio: 4.5, backs: { light: [], dark: [] }, fronts: ['#b91c1c', '#ff8a80'] },
]

/** The candidate that contrasts best with `other` (the first one meeting `ratio` wins: the scheme's own). */
function choose(candidates: readonly string[], other: string, ratio: number): string | undefined {
  let best: string | undefined
  for (const candidate of candidates) {
    if (contrast(candidate, other) >= ratio) return candidate
    if (!best || contrast(candidate, other) > contrast(best, other)) best = candidate
  }
  return best
}

/** The dark scheme where the theme sets no colour (the light one is the stylesheet's: styles.ts). */
const DARK: Readonly<Record<string, string>> = {
  background: '#15171b',
  'container-color': '#e8eaed',
  'host-bubble-bg': '#262a31',
  'host-bubble-color': '#e8eaed',
  'guest-bubble-bg': '#3563e9',
  'guest-bubble-color': '#ffffff',
  'button-bg': '#3563e9',
  'button-color': '#ffffff',
  'input-bg': '#1d2026',
  'input-color': '#e8eaed',
  'input-border-color': '#80868f',
  'input-placeholder': '#9aa0a8',
  'progress-track': '#2c3038',
  'progress-color': '#8ab4ff',
  'focus-ring': '#8ab4ff',
  error: '#ff8a80',
}

/**
 * The colours to add to a theme's private properties (`vars`, as themeVars made them) in `scheme`:
 * for each pair the theme sets one side of, the other side, so that it keeps its contrast; then, in
 * the dark scheme, the dark colour of every property the theme leaves unset.
 */
export function schemeVars(vars: Readonly<Record<string, string>>, scheme: 'light' | 'dark'): Record<string, string> {
  const added: Record<string, string> = {}
  const value = (name: string) => vars[`--fct-${name}`]
  for (const { back, front, ratio, backs, fronts } of PAIRS) {
    const [behind, before] = [value(back), value(front)]
    if (behind && !before && rgbOf(behind)) {
      const colour = choose(scheme === 'dark' ? [...fronts].reverse() : fronts, behind, ratio)
      if (colour) added[`--fct-${front}`] = colour
    } else if (before && !behind && backs[scheme].length > 0 && rgbOf(before)) {
      const colour = choose(backs[scheme], before, ratio)
      if (colour) added[`--fct-${back}`] = colour
    }
  }
  if (scheme === 'dark') for (const [name, colour] of Object.entries(DARK)) if (!vars[`--fct-${name}`]) added[`--fct-${name}`] ??= colour
  return added
}
