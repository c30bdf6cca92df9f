import { describe, expect, it } from 'vitest'
import type { Theme } from '../../../../src/protocol/index'
import { themeVars } from '../../../../src/widget/ui/theme/theme-vars'

/** Stands in for CSS.supports: colors are hex, named or color-mix(); lengths end in px or %. */
const isValid = (property: string, value: string) => {
  if (property === 'color') return /^(#[\da-f]{3,8}|[a-z]+|color-mix\(.*\))$/i.test(value)
  if (property === 'max-width' || property === 'max-height') return /^\d+(px|%)$/.test(value)
  if (property === 'background') return value.startsWith('url(')
  return false
}

describe('themeVars', () => {
  it('maps every StyleBox field of each box', () => {
    const theme: Theme = {
      chat: {
        hostBubbles: {
          backgroundColor: '#F7F8FF',
          color: '#303235',
          opacity: 0.5,
          blur: 4,
          shadow: 'md',
          border: { thickness: 2, color: '#000000', roundeness: 'custom', customRoundeness: 12, opacity: 0.25 },
        },
        guestBubbles: { backgroundColor: '#FF8E21', border: { roundeness: 'none' } },
        buttons: { backgroundColor: '#0042DA', color: '#FFFFFF' },
        inputs: { backgroundColor: '#FFFFFF', placeholderColor: '#9095A0' },
        container: { backgroundColor: '#eeeeee', maxWidth: '600px', maxHeight: '80%' },
        roundness: 'large',
      },
    }
    const { vars, rejected } = themeVars(theme, isValid)
    expect(rejected).toEqual([])
    expect(vars).toMatchObject({
      '--fct-host-bubble-bg': 'color-mix(in srgb, #F7F8FF 50%, transparent)',
      '--fct-host-bubble-color': '#303235',
      '--fct-host-bubble-blur': 'blur(4px)',
      '--fct-host-bubble-border-width': '2px',
      '--fct-host-bubble-border-color': 'color-mix(in srgb, #000000 25%, transparent)',
      '--fct-host-bubble-radius': '12px',
      '--fct-guest-bubble-bg': '#FF8E21',
      '--fct-guest-bubble-radius': '0px',
      '--fct-button-bg': '#0042DA',
      '--fct-input-placeholder': '#9095A0',
      '--fct-container-max-width': '600px',
      '--fct-container-max-height': '80%',
      '--fct-radius': '20px',
    })
    expect(vars['--fct-host-bubble-shadow']).toContain('rgb(0 0 0')
  })

  it('maps font, background and progress bar', () => {
    const { vars } = themeVars(
      {
        general: {
          font: 'Open Sans',
          background: { type: 'Image', content: 'https://cdn.example/bg.jpg' },
          progressBar: { isEnabled: true, color: '#ff0000', backgroundColor: '#eeeeee', thickness: 6 },
        },
      },
      isValid,
    )
    expect(vars['--fct-font-family']).toMatch(/^"flowchat Open Sans", "Open Sans", system-ui/)
    expect(vars['--fct-background']).toBe('url("https://cdn.example/bg.jpg") center / cover no-repeat')
    expect(vars['--fct-progress-thickness']).toBe('6px')
    expect(themeVars({ general: { background: { type: 'None' } } }, isValid).vars['--fct-background']).toBe('transparent')
  })

  it('ignores values that try to escape their declaration or inject markup', () => {
    const theme: Theme = {
      general: { background: { type: 'Color', content: 'red;} body{display:none' }, font: '"x";}</style><script>' },
      chat: {
        hostBubbles: { backgroundColor: 'red}</style><script>alert(1)</script>', color: 'blue /* x */' },
        container: { maxWidth: '100px; position: fixed' },
      },
    }
    const { vars, rejected } = themeVars(theme, () => true)
    for (const value of Object.values(vars)) expect(value).not.toMatch(/[;{}<>]/)
    expect(vars['--fct-background']).toBeUndefined()
    expect(vars['--fct-host-bubble-bg']).toBeUndefined()
    expect(vars['--fct-font-family']).toMatch(/^"flowchat x[^"]*", "x[^"]*", /)
    expect(rejected).toEqual(
      expect.arrayContaining([
        'general.background.content',
        'chat.hostBubbles.backgroundColor',
        'chat.hostBubbles.color',
        'chat.container.maxWidth',
      ]),
    )
  })

  it('finds nothing for enumerated values named like object members', () => {
    const { vars } = themeVars(
      { chat: { roundness: 'constructor', hostBubbles: { shadow: '__proto__', border: { roundeness: 'toString' } } } },
      () => true,
    )
    expect(vars).toEqual({})
  })

  it('ignores values the CSS parser rejects and unsafe image URLs', () => {
    const { vars, rejected } = themeVars(
      {
        general: { background: { type: 'Image', content: 'javascript:alert(1)' } },
        chat: { buttons: { backgroundColor: 'not a color!' } },
      },
      isValid,
    )
    expect(vars).toEqual({})
    expect(rejected).toEqual(['general.background.content', 'chat.buttons.backgroundColor'])
  })
})
