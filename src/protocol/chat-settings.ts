import { z } from 'zod/mini'
import { bool, num, opt, str } from './common'

/**
 * The settings a chat reads (the widget's view of a published flow holds only these, so its core
 * carries no schema of the rest). `settingsSchema` (settings.ts) is made of these and the rest.
 */
export const REMEMBER_USER_STORAGES = ['session', 'local'] as const

export const rememberUserSchema = z.looseObject({ isEnabled: bool(), storage: str() })
export const chatGeneralShape = { isTypingEmulationEnabled: bool(), isInputPrefillEnabled: bool() }
export const chatGeneralSettingsSchema = z.looseObject({ ...chatGeneralShape, rememberUser: opt(rememberUserSchema) })

export const typingEmulationSchema = z.looseObject({
  enabled: bool(),
  speed: num(),
  maxDelay: num(),
  delayBetweenBubbles: num(),
  isDisabledOnFirstMessage: bool(),
})
