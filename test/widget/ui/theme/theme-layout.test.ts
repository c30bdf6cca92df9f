import { describe, expect, it } from 'vitest'
import { themeLayout } from '../../../../src/widget/ui/theme/theme-layout'

describe('themeLayout', () => {
  it('reads whether the progress bar shows and the avatars, with safe defaults', () => {
    expect(themeLayout(undefined)).toEqual({
      progress: false,
      hostAvatar: { enabled: false, url: undefined },
      guestAvatar: { enabled: false, url: undefined },
    })
    const layout = themeLayout({
      general: { progressBar: { isEnabled: true, placement: 'Bottom', position: 'fixed' } },
      chat: { hostAvatar: { isEnabled: true, url: 'https://a.example/h.png' } },
    })
    expect(layout.progress).toBe(true)
    expect(layout.hostAvatar).toEqual({ enabled: true, url: 'https://a.example/h.png' })
  })
})
