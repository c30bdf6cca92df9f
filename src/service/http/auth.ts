import type { Context } from 'hono'
import { hashToken, type TokenKind, tokenKindOf } from '../ids'
import { noteWorkspace } from '../observability/request-context'
import type { TokensRepository } from '../store/tokens-repository'
import { clientKey } from './client-address'
import { HttpError } from './errors'
import type { RateLimiter } from './rate-limit'

/** Who is calling a management operation, from a verified bearer token. */
export interface Caller {
  tokenId: string
  workspaceId: string
  kind: TokenKind
  /** The token's label, and an agent token's person (name and picture). */
  label: string | null
  agent?: { name: string; avatarUrl?: string }
  /** How people know the token: its label, else its last characters (what published versions are signed with). */
  name: string
}

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="flow-service"' }

function unauthorized(message: string): HttpError {
  return new HttpError('unauthorized', message, undefined, CHALLENGE)
}

/** How tokens are checked: where they are, and the bucket of failures per client address. */
export interface TokenAuth {
  tokens: TokensRepository
  /** Failed authentications per client address; an address past it gets 429, right token or not. */
  failures: RateLimiter
  trustProxyHops: number
}

/**
 * Verifies `Authorization: Bearer <token>` and checks its kind. Missing, malformed and unknown
 * tokens are 401, each counted against the client address; an address out of failures is 429
 * before its token is looked at, so guessing stops being answered at all. A valid token of a kind
 * not in `kinds` is 403.
 */
export async function authenticate(c: Context, auth: TokenAuth, kinds: readonly TokenKind[]): Promise<Caller> {
  const failureKey = failureKeyOf(c, auth)
  const fail = (message: string) => refuseAuthentication(c, auth, message)
  const header = c.req.header('authorization')
  const token = bearerToken(header)
  const wellFormed = token !== undefined && tokenKindOf(token) !== undefined
  // The bucket is read along with the token, in parallel: no round trip is added to a good call.
  const [refused, record] = await Promise.all([
    auth.failures.refusal(failureKey),
    wellFormed ? auth.tokens.findByHash(hashToken(token)) : undefined,
  ])
  if (refused) throw refused
  if (header === undefined || header.trim() === '') {
    return fail('Missing Authorization header; send "Authorization: Bearer <token>".')
  }
  if (!wellFormed) return fail('Malformed Authorization header; expected "Bearer fs_sk_…" or "Bearer fs_pk_…".')
  if (!record) return fail('Unknown or revoked token.')
  if (!kinds.includes(record.kind)) {
    throw new HttpError(
      'forbidden',
      record.kind === 'publishable'
        ? 'A publishable token can only read published flows; use a secret token.'
        : 'This token kind may not perform this operation.',
    )
  }
  noteWorkspace(c, record.workspaceId)
  return {
    tokenId: record.id,
    workspaceId: record.workspaceId,
    kind: record.kind,
    label: record.label,
    name: tokenName(record),
    ...(record.kind === 'agent'
      ? {
          agent: {
            name: record.agentName ?? record.label ?? 'Agent',
            ...(record.agentAvatarUrl ? { avatarUrl: record.agentAvatarUrl } : {}),
          },
        }
      : {}),
  }
}

/** A token's label, else "token …AbC1" (its hint), else its id. */
export const tokenName = (token: { id: string; label: string | null; hint: string | null }) =>
  token.label?.trim() || `token ${token.hint ?? token.id}`

/** A failed authentication: counted against the client address, then 401 (or 429 once it is out of failures). */
export async function refuseAuthentication(c: Context, auth: TokenAuth, message: string): Promise<never> {
  await auth.failures.consume(failureKeyOf(c, auth))
  throw unauthorized(message)
}

/** The token of an `Authorization: Bearer <token>` header. */
export const bearerToken = (header: string | undefined) => (header === undefined ? undefined : /^Bearer +(\S+) *$/i.exec(header)?.[1])

const failureKeyOf = (c: Context, auth: TokenAuth) => `auth-failure:${clientKey(c, auth.trustProxyHops)}`
