import type { Theme } from '../../../protocol/index'

export interface ThemeLayout {
  progress: { enabled: boolean; placement: 'top' | 'bottom'; position: 'fixed' | 'absolute' }
  hostAvatar: { enabled: boolean; url: string | undefined }
  guestAvatar: { enabled: boolean; url: string | undefined }
}

/** The structural choices of a theme: what to render, not how it looks. */
export function themeLayout(theme: Theme | null | undefined): ThemeLayout {
  const progress = theme?.general?.progressBar
  const chat = theme?.chat
  return {
    progress: {
      enabled: progress?.isEnabled === true,
      placement: progress?.placement === 'Bottom' ? 'bottom' : 'top',
      position: progress?.position === 'fixed' ? 'fixed' : 'absolute',
    },
    hostAvatar: { enabled: chat?.hostAvatar?.isEnabled === true, url: chat?.hostAvatar?.url ?? undefined },
    guestAvatar: { enabled: chat?.guestAvatar?.isEnabled === true, url: chat?.guestAvatar?.url ?? undefined },
  }
}
