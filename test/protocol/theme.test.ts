import { expect, test } from 'vitest'
import { settingsSchema, themeSchema } from '../../src/protocol/index'

test('every theme field of the spec parses, including StyleBox borders', () => {
  const box = {
    backgroundColor: '#fff',
    color: '#111',
    blur: 2,
    opacity: 0.9,
    shadow: 'none',
    border: { thickness: 1, color: '#ccc', roundeness: 'none', customRoundeness: 6, opacity: 0.5 },
  }
  const theme = {
    general: {
      font: 'Open Sans',
      background: { type: 'Color', content: '#fafafa' },
      progressBar: { isEnabled: true, color: '#0042DA', backgroundColor: '#e0edff', placement: 'Top', thickness: 4, position: 'fixed' },
    },
    chat: {
      container: { ...box, maxWidth: '800px', maxHeight: '100%' },
      hostAvatar: { isEnabled: true, url: 'https://example.com/a.png' },
      guestAvatar: { isEnabled: false, url: null },
      hostBubbles: box,
      guestBubbles: box,
      buttons: box,
      inputs: { ...box, placeholderColor: '#999' },
      roundness: 'none',
    },
    customCss: '.x { color: red }',
  }
  expect(themeSchema.parse(theme)).toEqual(theme)
})

test('a theme value of the wrong type is rejected rather than guessed', () => {
  expect(themeSchema.safeParse({ general: { progressBar: { thickness: 'thick' } } }).success).toBe(false)
})

test('every settings field of the spec parses', () => {
  const settings = {
    general: {
      isBrandingEnabled: false,
      isTypingEmulationEnabled: true,
      isInputPrefillEnabled: true,
      isHideQueryParamsEnabled: true,
      isNewResultOnRefreshEnabled: false,
      rememberUser: { isEnabled: true, storage: 'session' },
    },
    typingEmulation: { enabled: true, speed: 300, maxDelay: 1.5, delayBetweenBubbles: 0.5, isDisabledOnFirstMessage: true },
    metadata: {
      title: 't',
      description: 'd',
      imageUrl: 'https://e.com/i.png',
      favIconUrl: 'https://e.com/f.ico',
      customHeadCode: '',
      tagManagerId: 'GTM-1',
    },
    messagingApp: {
      isEnabled: false,
      startCondition: { logicalOperator: 'OR', comparisons: [{ id: 'c', comparisonOperator: 'Equal to', value: 'hi' }] },
      sessionExpiryTimeout: 4.5,
    },
    publicShare: { isEnabled: true },
    security: { allowedOrigins: ['https://example.com'] },
  }
  expect(settingsSchema.parse(settings)).toEqual(settings)
})
