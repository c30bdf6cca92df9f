import { z } from 'zod/mini'
import { bool, num, opt, str } from './common'

/**
 * The settings a chat reads (the widget's view of a published flow holds only these, so its core
 * carries no schema of the rest). `settingsSchema` (settings.ts) is made of these and the rest.
 */
export const REMEMBER_USER_STORAGES = ['session', 'local'] as const
/** How long a remembered conversation lasts idle by default (hours): the service's default session lifetime. */
export const DEFAULT_EXPIRY_HOURS = 24
export const MAX_EXPIRY_HOURS = 8760

/** A conversation last active at `lastActive` (ms) has expired at `now` under `expiryHours`. */
export const hasExpired = (lastActive: number, now: number, expiryHours: number | null | undefined): boolean =>
  now - lastActive > Math.min(Math.max(expiryHours || DEFAULT_EXPIRY_HOURS, 0), MAX_EXPIRY_HOURS) * 3_600_000

/**
 * `expiryHours` (checked by the service: settings.ts): a remembered conversation idle this long
 * starts over, with a notice (default `DEFAULT_EXPIRY_HOURS`; the service's session lifetime,
 * SESSION_TTL_SECONDS, bounds it too).
 */
export const rememberUserSchema = z.looseObject({ isEnabled: bool(), storage: str(), expiryHours: num() })

export const chatGeneralShape = { isTypingEmulationEnabled: bool(), isInputPrefillEnabled: bool() }
export const chatGeneralSettingsSchema = z.looseObject({ ...chatGeneralShape, rememberUser: opt(rememberUserSchema) })

export const typingEmulationSchema = z.looseObject({
  enabled: bool(),
  speed: num(),
  maxDelay: num(),
  delayBetweenBubbles: num(),
  isDisabledOnFirstMessage: bool(),
})
