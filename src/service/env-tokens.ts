import { tokenHint } from '../protocol/management'
import type { ServiceConfig } from './config'
import { hashToken, newId, type TokenKind } from './ids'
import type { Store } from './store/store'

/** The workspace the environment tokens (and the demo) belong to. */
export const DEMO_WORKSPACE_ID = 'demo'

/**
 * Registers `FLOW_SECRET_TOKEN` / `FLOW_PUBLISHABLE_TOKEN` for the demo workspace, so a fresh
 * database is usable with tokens the operator already knows. Idempotent across restarts.
 */
export async function ensureEnvTokens(store: Store, config: ServiceConfig, now: Date): Promise<void> {
  const wanted: Array<[TokenKind, string | undefined, string]> = [
    ['secret', config.secretToken, 'FLOW_SECRET_TOKEN'],
    ['publishable', config.publishableToken, 'FLOW_PUBLISHABLE_TOKEN'],
  ]
  if (wanted.every(([, token]) => token === undefined)) return
  await store.workspaces.ensure(DEMO_WORKSPACE_ID, 'Demo', now)
  for (const [kind, token, variable] of wanted) {
    if (token === undefined) continue
    const stored = await store.tokens.insert({
      id: newId(),
      workspaceId: DEMO_WORKSPACE_ID,
      kind,
      tokenHash: hashToken(token),
      label: variable,
      hint: tokenHint(token),
      createdAt: now,
    })
    if (stored.workspaceId !== DEMO_WORKSPACE_ID || stored.kind !== kind) {
      throw new Error(`${variable} is already registered for workspace ${stored.workspaceId}; use another token.`)
    }
  }
}
