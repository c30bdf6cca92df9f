import { z } from 'zod/mini'
import { bool, num, opt, str } from './common'

export const REMEMBER_USER_STORAGES = ['session', 'local'] as const

/** The parts of the settings a chat reads (the widget's view of a published flow holds only these). */
export const generalSettingsSchema = z.looseObject({
  isBrandingEnabled: bool(),
  isTypingEmulationEnabled: bool(),
  isInputPrefillEnabled: bool(),
  isHideQueryParamsEnabled: bool(),
  isNewResultOnRefreshEnabled: bool(),
  rememberUser: opt(z.looseObject({ isEnabled: bool(), storage: str() })),
})
export const typingEmulationSchema = z.looseObject({
  enabled: bool(),
  speed: num(),
  maxDelay: num(),
  delayBetweenBubbles: num(),
  isDisabledOnFirstMessage: bool(),
})
export const metadataSchema = z.looseObject({
  title: str(),
  description: str(),
  imageUrl: str(),
  favIconUrl: str(),
  customHeadCode: str(),
  tagManagerId: str(),
})

export const settingsSchema = z.looseObject({
  general: opt(generalSettingsSchema),
  typingEmulation: opt(typingEmulationSchema),
  metadata: opt(metadataSchema),
  messagingApp: opt(
    z.looseObject({
      isEnabled: bool(),
      startCondition: opt(
        z.looseObject({
          logicalOperator: str(),
          comparisons: opt(
            z.array(z.looseObject({ id: str(), comparisonOperator: str(), value: str() })),
          ),
        }),
      ),
      sessionExpiryTimeout: num(),
    }),
  ),
  publicShare: opt(z.looseObject({ isEnabled: bool() })),
  security: opt(z.looseObject({ allowedOrigins: opt(z.array(z.string())) })),
})
export type Settings = z.infer<typeof settingsSchema>
