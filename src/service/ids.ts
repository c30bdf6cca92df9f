import { createHash, randomBytes, randomFillSync } from 'node:crypto'
import { TOKEN_PREFIXES, type TokenKind } from '../protocol/management'

const ID_BYTES = 18
/** Random bytes drawn from the system a few kilobytes at a time (every chat request needs ids); never reused. */
const pool = Buffer.alloc(ID_BYTES * 256)
let used = pool.length

/**
 * Opaque identifiers: 18 random bytes as base64url give 24 URL-safe characters (144 bits), so
 * collisions are not a practical concern and ids reveal nothing about order or volume.
 */
export function newId(): string {
  if (used + ID_BYTES > pool.length) {
    randomFillSync(pool)
    used = 0
  }
  used += ID_BYTES
  return pool.toString('base64url', used - ID_BYTES, used)
}

/** Ids and public ids are URL-safe; anything else cannot name a stored resource. */
const RESOURCE_REF = /^[A-Za-z0-9_-]{1,128}$/

export function isResourceRef(value: string): boolean {
  return RESOURCE_REF.test(value)
}

export { type TokenKind, tokenKindOf } from '../protocol/management'

/** A new API token: the prefix names its kind, 32 random bytes make it unguessable. */
export function newToken(kind: TokenKind): string {
  return TOKEN_PREFIXES[kind] + randomBytes(32).toString('base64url')
}

/** Only this hash is stored: a database leak does not leak usable tokens. */
export function hashToken(token: string): string {
  return sha256(token)
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/** A short random suffix for public ids (lower-case letters and digits). */
export function randomSlugSuffix(length = 6): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'
  const bytes = randomBytes(length)
  let out = ''
  // 256 % 36 leaves a small bias; irrelevant for a uniqueness suffix that is checked anyway.
  for (const byte of bytes) out += alphabet[byte % alphabet.length]
  return out
}
