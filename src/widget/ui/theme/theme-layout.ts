import type { ThemeLayoutFields } from '../../../protocol/theme-layout'

export interface ThemeLayout {
  /** Whether the theme shows the progress bar (its placement is the bar's chunk's business). */
  progress: boolean
  hostAvatar: { enabled: boolean; url: string | undefined }
  guestAvatar: { enabled: boolean; url: string | undefined }
}

/** The structural choices of a theme: what to render, not how it looks. */
export function themeLayout(theme: ThemeLayoutFields | null | undefined): ThemeLayout {
  const chat = theme?.chat
  return {
    progress: theme?.general?.progressBar?.isEnabled === true,
    hostAvatar: { enabled: chat?.hostAvatar?.isEnabled === true, url: chat?.hostAvatar?.url ?? undefined },
    guestAvatar: { enabled: chat?.guestAvatar?.isEnabled === true, url: chat?.guestAvatar?.url ?? undefined },
  }
}
