import { hashToken, newId, newToken } from '../ids'
import type { TokensRepository } from '../store/tokens-repository'
import type { WorkspacesRepository } from '../store/workspaces-repository'
import { SHARE_TOKEN_LABEL } from '../tokens/tokens-service'

/**
 * The publishable token a share page hands to its widget, which needs one to read the published
 * flow (theme and settings). Publishable tokens are meant for public pages, and a share page is
 * one: it gets a token of the flow's own workspace.
 */
export interface ShareTokenSource {
  /** Undefined when the workspace revoked its share pages' token. */
  tokenFor(workspaceId: string): Promise<string | undefined>
}

/** How the tokens this module mints are labelled in the tokens table. */
export { SHARE_TOKEN_LABEL }

export interface ShareTokenDeps {
  tokens: Pick<TokensRepository, 'findByHash' | 'insert' | 'revoke'>
  workspaces: Pick<WorkspacesRepository, 'shareTokensRevoked'>
  /** A publishable token the operator configured (FLOW_PUBLISHABLE_TOKEN), used for its workspace. */
  configuredToken?: string
  now: () => Date
}

/**
 * The service stores token hashes only, so it cannot hand out a token someone else created. It
 * uses the operator's configured publishable token for that token's workspace, and for any other
 * workspace mints a dedicated `share-page` token once per process, keeping it in memory. A restart
 * mints a new one; earlier ones stay valid, so pages already open keep working. Each use checks
 * the token is still stored, so a token deleted from the database is replaced, not served. A
 * workspace that revoked its share pages' token (tokens-service.ts) gets none minted again, until
 * its owner creates a `share-page` token: its pages say the chat is not available meanwhile.
 */
export function createShareTokens(deps: ShareTokenDeps): ShareTokenSource {
  const known = new Map<string, Promise<string | undefined>>()

  const isUsable = async (token: string, workspaceId: string) => {
    const record = await deps.tokens.findByHash(hashToken(token))
    return record?.kind === 'publishable' && record.workspaceId === workspaceId
  }

  const obtain = async (workspaceId: string): Promise<string | undefined> => {
    if (deps.configuredToken && (await isUsable(deps.configuredToken, workspaceId))) return deps.configuredToken
    if (await deps.workspaces.shareTokensRevoked(workspaceId)) return undefined
    const token = newToken('publishable')
    const id = newId()
    await deps.tokens.insert({
      id,
      workspaceId,
      kind: 'publishable',
      tokenHash: hashToken(token),
      label: SHARE_TOKEN_LABEL,
      createdAt: deps.now(),
    })
    // A revocation that marked the workspace meanwhile may have swept before this insert: look again.
    if (await deps.workspaces.shareTokensRevoked(workspaceId)) {
      await deps.tokens.revoke(workspaceId, id)
      return undefined
    }
    return token
  }

  /** One promise per workspace, so concurrent first visits share a single mint. */
  const cached = (workspaceId: string): Promise<string | undefined> => {
    let pending = known.get(workspaceId)
    if (!pending) {
      const obtained = obtain(workspaceId)
      known.set(workspaceId, obtained)
      // No token (revoked) is asked again next time: the owner may turn share pages back on.
      obtained
        .then((token) => token === undefined && known.get(workspaceId) === obtained && known.delete(workspaceId))
        .catch(() => known.delete(workspaceId))
      pending = obtained
    }
    return pending
  }

  return {
    async tokenFor(workspaceId) {
      const pending = cached(workspaceId)
      const token = await pending
      if (token === undefined || (await isUsable(token, workspaceId))) return token
      // Only the caller that saw this stale token drops it; a replacement may already be on its way.
      if (known.get(workspaceId) === pending) known.delete(workspaceId)
      return cached(workspaceId)
    },
  }
}
