import { z } from 'zod/mini'
import { anyOf, bool, num, opt, str } from './common'

export const BACKGROUND_TYPES = ['Color', 'Image', 'None'] as const
export const PROGRESS_BAR_PLACEMENTS = ['Top', 'Bottom'] as const
export const PROGRESS_BAR_POSITIONS = ['fixed', 'absolute'] as const
export const ROUNDNESS_VALUES = ['none', 'medium', 'large', 'custom'] as const

export const borderSchema = z.looseObject({
  thickness: num(),
  color: str(),
  roundeness: str(),
  customRoundeness: num(),
  opacity: num(),
})

const styleBoxShape = {
  backgroundColor: str(),
  color: str(),
  blur: num(),
  opacity: num(),
  shadow: str(),
  border: opt(borderSchema),
}
export const styleBoxSchema = z.looseObject(styleBoxShape)
export type StyleBox = z.infer<typeof styleBoxSchema>

export const avatarSchema = z.looseObject({ isEnabled: bool(), url: str() })

export const themeSchema = z.looseObject({
  general: opt(
    z.looseObject({
      font: opt(anyOf(z.string(), z.looseObject({ type: str(), family: str(), url: str() }))),
      background: opt(z.looseObject({ type: str(), content: str() })),
      progressBar: opt(
        z.looseObject({
          isEnabled: bool(),
          color: str(),
          backgroundColor: str(),
          placement: str(),
          thickness: num(),
          position: str(),
        }),
      ),
    }),
  ),
  chat: opt(
    z.looseObject({
      container: opt(z.looseObject({ ...styleBoxShape, maxWidth: str(), maxHeight: str() })),
      hostAvatar: opt(avatarSchema),
      guestAvatar: opt(avatarSchema),
      hostBubbles: opt(styleBoxSchema),
      guestBubbles: opt(styleBoxSchema),
      buttons: opt(styleBoxSchema),
      inputs: opt(z.looseObject({ ...styleBoxShape, placeholderColor: str() })),
      roundness: str(),
    }),
  ),
  customCss: str(),
})
export type Theme = z.infer<typeof themeSchema>
