import type { Hono } from 'hono'
import { createTokenRequestSchema } from '../../protocol/management'
import type { AppContext } from '../context'
import { bodyReader } from '../http/body'
import { HttpError } from '../http/errors'
import { isResourceRef } from '../ids'
import { createToken, listTokens, revokeToken } from '../tokens/tokens-service'
import { secretCaller } from './secret-caller'

/** The caller's workspace tokens (secret token): listed without their secret, made, revoked. */
export function registerTokenRoutes(app: Hono, ctx: AppContext): void {
  const caller = secretCaller(ctx)
  const readBody = bodyReader(ctx.config.bodyLimits.managementBytes)

  app.get('/v1/tokens', async (c) => {
    const { workspaceId, tokenId } = await caller(c)
    return c.json({ workspaceId, tokens: await listTokens(ctx.store, workspaceId, tokenId) })
  })

  app.post('/v1/tokens', async (c) => {
    const { workspaceId } = await caller(c)
    const request = await readBody(c, createTokenRequestSchema, { keys: ['kind', 'label', 'agent'] })
    return c.json(
      await createToken(ctx.store, {
        workspaceId,
        kind: request.kind,
        label: request.label,
        now: ctx.now(),
        ...(request.agent
          ? { agent: { name: request.agent.name, ...(request.agent.avatarUrl ? { avatarUrl: request.agent.avatarUrl } : {}) } }
          : {}),
      }),
    )
  })

  app.delete('/v1/tokens/:tokenId', async (c) => {
    const { workspaceId } = await caller(c)
    const id = c.req.param('tokenId')
    if (!isResourceRef(id)) throw new HttpError('not_found', 'This workspace has no token with this id.')
    await revokeToken(ctx.store, workspaceId, id, ctx.now())
    return c.json({ id, revoked: true })
  })
}
