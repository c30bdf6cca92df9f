import type { Context } from 'hono'
import { hashToken, tokenKindOf, type TokenKind } from '../ids'
import type { TokensRepository } from '../store/tokens-repository'
import { HttpError } from './errors'

/** Who is calling a management operation, from a verified bearer token. */
export interface Caller {
  tokenId: string
  workspaceId: string
  kind: TokenKind
}

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="flow-service"' }

function unauthorized(message: string): HttpError {
  return new HttpError('unauthorized', message, undefined, CHALLENGE)
}

/**
 * Verifies `Authorization: Bearer <token>` and checks its kind. Missing, malformed and unknown
 * tokens are 401; a valid token of a kind not in `kinds` is 403.
 */
export async function authenticate(
  c: Context,
  tokens: TokensRepository,
  kinds: readonly TokenKind[],
): Promise<Caller> {
  const header = c.req.header('authorization')
  if (header === undefined || header.trim() === '') {
    throw unauthorized('Missing Authorization header; send "Authorization: Bearer <token>".')
  }
  const match = /^Bearer +(\S+) *$/i.exec(header)
  const token = match?.[1]
  if (token === undefined || tokenKindOf(token) === undefined) {
    throw unauthorized('Malformed Authorization header; expected "Bearer fs_sk_…" or "Bearer fs_pk_…".')
  }
  const record = await tokens.findByHash(hashToken(token))
  if (!record) throw unauthorized('Unknown or revoked token.')
  if (!kinds.includes(record.kind)) {
    throw new HttpError(
      'forbidden',
      record.kind === 'publishable'
        ? 'A publishable token can only read published flows; use a secret token.'
        : 'This token kind may not perform this operation.',
    )
  }
  return { tokenId: record.id, workspaceId: record.workspaceId, kind: record.kind }
}
