import { createHmac, timingSafeEqual } from 'node:crypto'
import { type IdentityRefusal, type IdentityVerdict, isUserId, type StartChatUser, USER_HASH_PATTERN } from '../../protocol/identity'
import type { CredentialsKey } from '../credentials/credentials-key'
import type { Store } from '../store/store'
import { openIdentitySecret } from './identity-secrets'

/** The hash a site's server computes for `userId` with `secret` (the docs show it in four languages). */
export function userHash(secret: string, userId: string): string {
  return createHmac('sha256', secret).update(userId, 'utf8').digest('hex')
}

/**
 * Rules on the `user` a startChat names: verified only when a secret of the workspace that
 * verifies now gives exactly this hash for exactly this id. Every secret is compared (in constant
 * time, whatever matched before), so the time taken says nothing about the hash.
 */
export async function verifyUser(
  deps: { store: Store; key: CredentialsKey },
  workspaceId: string,
  user: StartChatUser,
  now: Date,
): Promise<{ verdict: IdentityVerdict; userId?: string }> {
  if (!isUserId(user.id)) return refused('invalid_user_id')
  if (!USER_HASH_PATTERN.test(user.hash)) return refused('invalid_hash')
  const secrets = await deps.store.identity.activeSecrets(workspaceId, now.toISOString())
  if (secrets.length === 0) return refused('no_secret')
  const given = Buffer.from(user.hash, 'hex')
  let match = false
  for (const record of secrets) {
    const secret = openIdentitySecret(deps.key, record)
    if (secret === undefined) continue
    const expected = Buffer.from(userHash(secret, user.id), 'hex')
    // Both 32 bytes: the pattern above fixed the given hash's length.
    if (timingSafeEqual(given, expected)) match = true
  }
  return match ? { verdict: { status: 'verified' }, userId: user.id } : refused('hash_mismatch')
}

const refused = (reason: Extract<IdentityVerdict, { status: 'refused' }>['reason']) => ({
  verdict: { status: 'refused', reason } as IdentityVerdict,
})

/** The step's log saying why the identity was refused (a stable `details.code`, `identity-refused`, and the reason). */
export function identityRefusedLog(reason: IdentityRefusal) {
  return {
    status: 'warning',
    description: `user-id and user-hash were refused (${reason}): the conversation goes on anonymously`,
    details: { code: 'identity-refused', reason },
  }
}
