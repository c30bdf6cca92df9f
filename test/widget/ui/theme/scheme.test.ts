import { describe, expect, it } from 'vitest'
import { contrast, schemeVars } from '../../../../src/widget/ui/theme/scheme'

/** The colours a property ends with: the theme's own, else what the scheme adds. */
const final = (vars: Record<string, string>, scheme: 'light' | 'dark') => ({ ...vars, ...schemeVars(vars, scheme) })

describe('the colour schemes', () => {
  it('dresses a theme without colours in the dark scheme’s own, every pair at AA contrast', () => {
    const dark = final({}, 'dark')
    for (const [back, front] of [
      ['background', 'container-color'],
      ['host-bubble-bg', 'host-bubble-color'],
      ['guest-bubble-bg', 'guest-bubble-color'],
      ['button-bg', 'button-color'],
      ['input-bg', 'input-color'],
      ['input-bg', 'input-placeholder'],
      ['background', 'error'],
    ]) {
      expect(contrast(dark[`--fct-${back}`]!, dark[`--fct-${front}`]!), `${front} on ${back}`).toBeGreaterThanOrEqual(4.5)
    }
    expect(contrast(dark['--fct-background']!, dark['--fct-focus-ring']!)).toBeGreaterThanOrEqual(3)
    expect(schemeVars({}, 'light')).toEqual({})
  })

  it('keeps the owner’s colours, and picks the other colour of a pair they set half of to read on it', () => {
    // A light host bubble with no text colour, in the dark scheme: dark text, not the scheme's light text.
    const dark = final({ '--fct-host-bubble-bg': '#F7F8FF', '--fct-guest-bubble-bg': '#FF8E21', '--fct-button-color': '#111111' }, 'dark')
    expect(dark['--fct-host-bubble-bg']).toBe('#F7F8FF')
    expect(contrast('#F7F8FF', dark['--fct-host-bubble-color']!)).toBeGreaterThanOrEqual(4.5)
    expect(contrast('#FF8E21', dark['--fct-guest-bubble-color']!)).toBeGreaterThanOrEqual(4.5)
    expect(contrast(dark['--fct-button-bg']!, '#111111')).toBeGreaterThanOrEqual(4.5)
    // A black page background in the light scheme: light text and a light focus ring on it.
    const light = final({ '--fct-background': '#010000' }, 'light')
    expect(contrast('#010000', light['--fct-container-color']!)).toBeGreaterThanOrEqual(4.5)
    expect(contrast('#010000', light['--fct-focus-ring']!)).toBeGreaterThanOrEqual(3)
  })

  it('reads colours in hex, rgb() and color-mix(), and leaves what it cannot read (a picture, transparent) alone', () => {
    expect(contrast('rgb(0, 0, 0)', '#fff')).toBeCloseTo(21)
    expect(contrast('color-mix(in srgb, #000000 50%, transparent)', '#ffffff')).toBeCloseTo(21)
    expect(schemeVars({ '--fct-background': 'transparent' }, 'light')).toEqual({})
    expect(schemeVars({ '--fct-background': 'url("https://cdn.example/bg.jpg") center / cover no-repeat' }, 'light')).toEqual({})
  })
})
