import { type ApiToken, tokenHint } from '../../protocol/management'
import { HttpError } from '../http/errors'
import { hashToken, newId, newToken, type TokenKind } from '../ids'
import type { Store } from '../store/store'
import type { TokenRecord } from '../store/tokens-repository'

/**
 * A workspace's API tokens, for the API and the command line alike: made (the token itself is
 * returned this once: only its hash is stored), listed (never their secret: a hint of their last
 * characters to tell them apart) and revoked (deleted: the next request carrying it, to any
 * process, is 401).
 */

/**
 * The label of the publishable tokens the service mints for a workspace's share pages
 * (share/share-token.ts). Revoking one revokes them all and keeps the service from minting
 * another; creating a token with this label turns share pages' tokens back on.
 */
export const SHARE_TOKEN_LABEL = 'share-page'

export async function createToken(
  store: Store,
  input: { workspaceId: string; kind: TokenKind; label?: string | null; now: Date; agent?: { name: string; avatarUrl?: string } },
): Promise<{ token: ApiToken; value: string }> {
  const agent = agentOf(input)
  const value = newToken(input.kind)
  const record = await store.tokens.insert({
    id: newId(),
    workspaceId: input.workspaceId,
    kind: input.kind,
    tokenHash: hashToken(value),
    label: input.label ?? null,
    hint: tokenHint(value),
    createdAt: input.now,
    ...(agent ? { agent } : {}),
  })
  if (input.kind === 'publishable' && input.label === SHARE_TOKEN_LABEL)
    await store.workspaces.setShareTokensRevoked(input.workspaceId, null)
  return { token: toApiToken(record), value }
}

/** The workspace's tokens, oldest first; `currentTokenId` marks the one the request was made with. */
export async function listTokens(store: Store, workspaceId: string, currentTokenId?: string): Promise<ApiToken[]> {
  return (await store.tokens.listByWorkspace(workspaceId)).map((record) => toApiToken(record, currentTokenId))
}

export async function revokeToken(store: Store, workspaceId: string, tokenId: string, now: Date): Promise<void> {
  const revoked = await store.tokens.revokeReturning(workspaceId, tokenId)
  if (!revoked) throw new HttpError('not_found', 'This workspace has no token with this id.')
  if (revoked.kind === 'publishable' && revoked.label === SHARE_TOKEN_LABEL) {
    // Marked first: a share page asking meanwhile finds the mark, never a token to mint again.
    await store.workspaces.setShareTokensRevoked(workspaceId, now)
    await store.tokens.revokeLabelled(workspaceId, SHARE_TOKEN_LABEL)
  }
}

function toApiToken(record: TokenRecord, currentTokenId?: string): ApiToken {
  return {
    id: record.id,
    kind: record.kind,
    label: record.label,
    hint: record.hint,
    createdAt: record.createdAt,
    current: record.id === currentTokenId,
    ...(record.kind === 'agent' && record.agentName !== null
      ? { agent: { name: record.agentName, ...(record.agentAvatarUrl ? { avatarUrl: record.agentAvatarUrl } : {}) } }
      : {}),
  }
}

/**
 * An agent token names its person; other kinds name none. The picture is shown in visitors' pages:
 * an https address only (http on loopback, for development).
 */
function agentOf(input: {
  kind: TokenKind
  agent?: { name: string; avatarUrl?: string }
}): { name: string; avatarUrl?: string } | undefined {
  if (input.kind !== 'agent') {
    if (input.agent)
      throw new HttpError('invalid_body', 'Only an agent token names a person.', [{ path: 'agent', message: 'Only with kind "agent"' }])
    return undefined
  }
  const name = input.agent?.name.trim()
  if (!name)
    throw new HttpError('invalid_body', 'An agent token needs the name visitors see.', [{ path: 'agent.name', message: 'Required' }])
  const avatarUrl = input.agent?.avatarUrl?.trim()
  if (avatarUrl && !isAvatarUrl(avatarUrl)) {
    throw new HttpError('invalid_body', 'The avatar must be an https address.', [
      { path: 'agent.avatarUrl', message: 'Expected https://…' },
    ])
  }
  return { name, ...(avatarUrl ? { avatarUrl } : {}) }
}

function isAvatarUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname))
  } catch {
    return false
  }
}
