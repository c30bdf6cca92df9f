import { z } from 'zod/mini'
import { chatGeneralShape, MAX_EXPIRY_HOURS, typingEmulationSchema } from './chat-settings'
import { bool, num, opt, str } from './common'
import { metadataSchema } from './metadata'

export {
  chatGeneralSettingsSchema,
  DEFAULT_EXPIRY_HOURS,
  hasExpired,
  MAX_EXPIRY_HOURS,
  REMEMBER_USER_STORAGES,
  typingEmulationSchema,
} from './chat-settings'
export { metadataSchema } from './metadata'

/** `rememberUser` as the service checks it (the widget reads it as it comes, and clamps `expiryHours`). */
const rememberUserSettingSchema = z.looseObject({
  isEnabled: bool(),
  storage: str(),
  expiryHours: opt(/* @__PURE__ */ z.number().check(z.positive(), z.maximum(MAX_EXPIRY_HOURS))),
})

/** A flow's general settings, as the service validates them; a chat reads those of chat-settings.ts. */
export const generalSettingsSchema = z.looseObject({
  isBrandingEnabled: bool(),
  ...chatGeneralShape,
  isHideQueryParamsEnabled: bool(),
  isNewResultOnRefreshEnabled: bool(),
  rememberUser: opt(rememberUserSettingSchema),
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
          comparisons: opt(z.array(z.looseObject({ id: str(), comparisonOperator: str(), value: str() }))),
        }),
      ),
      sessionExpiryTimeout: num(),
    }),
  ),
  publicShare: opt(z.looseObject({ isEnabled: bool() })),
  security: opt(z.looseObject({ allowedOrigins: opt(z.array(z.string())) })),
})
export type Settings = z.infer<typeof settingsSchema>
