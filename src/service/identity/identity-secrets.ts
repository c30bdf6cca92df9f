import { randomBytes } from 'node:crypto'
import { DEFAULT_PREVIOUS_SECRET_HOURS, IDENTITY_SECRET_PREFIX, type IdentitySecret } from '../../protocol/identity'
import { tokenHint } from '../../protocol/management'
import { type CredentialsKey, open, seal } from '../credentials/credentials-key'
import { newId } from '../ids'
import type { IdentitySecretRecord } from '../store/identity-repository'
import type { Store } from '../store/store'

/**
 * A workspace's identity secrets, made by the service and shown once: its owner puts the secret
 * on their own server, which signs its users' ids with it (identity-verification.ts). Stored
 * sealed with the credentials key (the service must read it back to verify, so it cannot be a
 * one-way hash like a token). Rotating makes a new current secret; the one it replaces keeps
 * verifying for a while (24 hours by default, 0 to stop it at once) so a site can deploy the new
 * one without refusing its signed-in visitors meanwhile.
 */

const sealContext = (workspaceId: string, id: string) => `identity secret ${workspaceId} ${id}`

export function newIdentitySecret(): string {
  return `${IDENTITY_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`
}

/** Creates the workspace's first secret, or rotates to a new one; returns it this once. */
export async function rotateIdentitySecret(
  store: Store,
  key: CredentialsKey,
  input: { workspaceId: string; previousValidHours?: number | null; now: Date },
): Promise<{ identitySecret: IdentitySecret; secret: string }> {
  const secret = newIdentitySecret()
  const id = newId()
  const createdAt = input.now.toISOString()
  const hours = input.previousValidHours ?? DEFAULT_PREVIOUS_SECRET_HOURS
  const previousRetiresAt = new Date(input.now.getTime() + hours * 3_600_000).toISOString()
  const record = {
    id,
    workspaceId: input.workspaceId,
    keyId: key.id,
    sealedSecret: seal(key, secret, sealContext(input.workspaceId, id)),
    hint: tokenHint(secret),
    createdAt,
  }
  await store.identity.rotate(record, previousRetiresAt)
  return { identitySecret: view({ ...record, retiresAt: null }), secret }
}

/** The secrets that verify now, the current one first (never the secrets themselves). */
export async function listIdentitySecrets(store: Store, workspaceId: string, now: Date): Promise<IdentitySecret[]> {
  return (await store.identity.activeSecrets(workspaceId, now.toISOString())).map(view)
}

/** A stored secret, opened with the credentials key; undefined when sealed with a key this service no longer has. */
export function openIdentitySecret(key: CredentialsKey, record: IdentitySecretRecord): string | undefined {
  if (record.keyId !== key.id) return undefined
  return open(key, record.sealedSecret, sealContext(record.workspaceId, record.id))
}

function view(record: IdentitySecretRecord): IdentitySecret {
  return { id: record.id, hint: record.hint, createdAt: record.createdAt, retiresAt: record.retiresAt }
}
