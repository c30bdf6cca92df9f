import { z } from 'zod/mini'
import { opt } from './common'

/**
 * Identity verification: how a site says who its signed-in visitor is without letting anyone
 * claim to be anyone. The site's server computes `user-hash` = HMAC-SHA256(identity secret,
 * user id as UTF-8), written as 64 lowercase hexadecimal digits, and puts both on the chat
 * element; the widget sends them with startChat, and the service links the conversation to the
 * user only when the hash is the one a current secret of the flow's workspace gives.
 */

/** The element's attributes (and `initChat`/`initBubble`/`initPopup` options `userId`, `userHash`). */
export const USER_ID_ATTRIBUTE = 'user-id'
export const USER_HASH_ATTRIBUTE = 'user-hash'

/** Longest user id (characters): any id a site's users table has, an e-mail address included. */
export const MAX_USER_ID_LENGTH = 256
/** The hash: HMAC-SHA256 as lowercase hexadecimal. */
export const USER_HASH_PATTERN = /^[0-9a-f]{64}$/
/** Identity secrets start with this, so a leaked one is recognised (secret scanners, logs). */
export const IDENTITY_SECRET_PREFIX = 'fs_id_'

/** A user id the service accepts: 1 to 256 characters, no control characters, not blank. */
export const isUserId = (value: unknown): value is string =>
  typeof value === 'string' &&
  value.length > 0 &&
  value.length <= MAX_USER_ID_LENGTH &&
  value.trim() !== '' &&
  !/[\u0000-\u001f\u007f]/.test(value)

/** startChat's `user`: who the site says the visitor is. Checked loosely here; the service rules on it. */
export const startChatUserSchema = /* @__PURE__ */ z.looseObject({
  id: /* @__PURE__ */ z.string().check(z.maxLength(MAX_USER_ID_LENGTH * 4)),
  hash: /* @__PURE__ */ z.string().check(z.maxLength(200)),
})
export type StartChatUser = z.infer<typeof startChatUserSchema>

/**
 * What startChat says of the `user` it was given (absent when none was): `verified`, the
 * conversation is the user's; `refused`, it goes on anonymously, for the `reason` given.
 * - `no_secret`: the workspace has no identity secret (create one first);
 * - `invalid_user_id`: the id is empty, too long or holds control characters;
 * - `invalid_hash`: the hash is not 64 lowercase hexadecimal digits;
 * - `hash_mismatch`: no current secret gives this hash for this id (forged, or a stale secret).
 */
export const IDENTITY_REFUSALS = ['no_secret', 'invalid_user_id', 'invalid_hash', 'hash_mismatch'] as const
export type IdentityRefusal = (typeof IDENTITY_REFUSALS)[number]
export type IdentityVerdict = { status: 'verified' } | { status: 'refused'; reason: IdentityRefusal }
export const identityVerdictSchema = /* @__PURE__ */ z.looseObject({ status: z.string(), reason: opt(z.string()) })

/** How long a rotated-out secret still verifies by default (hours), so a site can deploy its new one. */
export const DEFAULT_PREVIOUS_SECRET_HOURS = 24
export const MAX_PREVIOUS_SECRET_HOURS = 168

/** `POST /v1/identity-secret` (create or rotate): how long the secret it replaces keeps verifying. */
export const rotateIdentitySecretRequestSchema = /* @__PURE__ */ z.object({
  previousValidHours: opt(/* @__PURE__ */ z.number().check(z.int(), z.minimum(0), z.maximum(MAX_PREVIOUS_SECRET_HOURS))),
})

/** A secret as listed: never the secret itself, its last characters to tell them apart. */
export const identitySecretSchema = /* @__PURE__ */ z.object({
  id: z.string(),
  hint: z.string(),
  createdAt: z.string(),
  /** When it stops verifying (a rotated-out secret); null for the current one. */
  retiresAt: opt(z.string()),
})
export type IdentitySecret = z.infer<typeof identitySecretSchema>
