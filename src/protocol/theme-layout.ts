import { z } from 'zod/mini'
import { bool, opt, str } from './common'

/**
 * What a theme says the chat shows, not how it looks: whether the progress bar shows, the avatars,
 * the flow's custom CSS. `themeSchema` (theme.ts) is made of these and the look; the widget's core
 * validates only this part, so it carries no schema of the look (its chunks validate that).
 */
export const avatarSchema = z.looseObject({ isEnabled: bool(), url: str() })
export const progressBarShape = { isEnabled: bool() }
export const chatLayoutShape = { hostAvatar: opt(avatarSchema), guestAvatar: opt(avatarSchema) }
export const customCssShape = { customCss: str() }

export const themeLayoutSchema = z.looseObject({
  general: opt(z.looseObject({ progressBar: opt(z.looseObject(progressBarShape)) })),
  chat: opt(z.looseObject(chatLayoutShape)),
  ...customCssShape,
})
export type ThemeLayoutFields = z.infer<typeof themeLayoutSchema>
