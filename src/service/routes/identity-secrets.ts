import type { Hono } from 'hono'
import { rotateIdentitySecretRequestSchema } from '../../protocol/identity'
import type { AppContext } from '../context'
import { bodyReader } from '../http/body'
import { listIdentitySecrets, rotateIdentitySecret } from '../identity/identity-secrets'
import { secretCaller } from './secret-caller'

/** The caller's workspace identity secrets (secret token only): listed without the secret, created or rotated. */
export function registerIdentitySecretRoutes(app: Hono, ctx: AppContext): void {
  const caller = secretCaller(ctx)
  const readBody = bodyReader(ctx.config.bodyLimits.managementBytes)

  app.get('/v1/identity-secrets', async (c) => {
    const { workspaceId } = await caller(c)
    return c.json({ identitySecrets: await listIdentitySecrets(ctx.store, workspaceId, ctx.now()) })
  })

  // The first call creates the workspace's secret; each later one rotates it. The secret is in this answer only.
  app.post('/v1/identity-secrets', async (c) => {
    const { workspaceId } = await caller(c)
    const request = await readBody(c, rotateIdentitySecretRequestSchema, { keys: ['previousValidHours'], absent: {} })
    return c.json(
      await rotateIdentitySecret(ctx.store, ctx.integrations.key, {
        workspaceId,
        previousValidHours: request.previousValidHours,
        now: ctx.now(),
      }),
    )
  })
}
