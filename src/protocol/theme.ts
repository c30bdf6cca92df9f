import type { z } from 'zod/mini'
// Named zod imports, not the `z` namespace: a widget chunk importing this module then takes from
// the core's zod only what it uses (build/lazy-chunks.ts), not all of it.
import { looseObject } from 'zod/mini'
import { opt, str } from './common'
import { progressBarSchema } from './progress-bar'
import { styleBoxSchema, styleBoxShape } from './style-box'
import { fontSchema } from './theme-font'
import { chatLayoutShape, customCssShape } from './theme-layout'

export { PROGRESS_BAR_PLACEMENTS, PROGRESS_BAR_POSITIONS, progressBarSchema } from './progress-bar'
export { borderSchema, type StyleBox, styleBoxSchema } from './style-box'
export { fontSchema } from './theme-font'
export { avatarSchema, type ThemeLayoutFields, themeLayoutSchema } from './theme-layout'

/**
 * A flow's theme, as the service validates it. The widget's core validates only its layout
 * (theme-layout.ts); the chunks that read its look validate that with these schemas first.
 */
export const themeSchema = looseObject({
  general: opt(
    looseObject({
      font: opt(fontSchema),
      background: opt(looseObject({ type: str(), content: str() })),
      progressBar: opt(progressBarSchema),
    }),
  ),
  chat: opt(
    looseObject({
      container: opt(looseObject({ ...styleBoxShape, maxWidth: str(), maxHeight: str() })),
      ...chatLayoutShape,
      hostBubbles: opt(styleBoxSchema),
      guestBubbles: opt(styleBoxSchema),
      buttons: opt(styleBoxSchema),
      inputs: opt(looseObject({ ...styleBoxShape, placeholderColor: str() })),
      roundness: str(),
    }),
  ),
  ...customCssShape,
})
export type Theme = z.infer<typeof themeSchema>
