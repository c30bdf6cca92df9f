import type { Context, Hono } from 'hono'
import { CREDENTIAL_ID_PATTERN, createCredentialRequestSchema, updateCredentialRequestSchema } from '../../protocol/credentials'
import type { AppContext } from '../context'
import { bodyReader } from '../http/body'
import { HttpError } from '../http/errors'
import { secretCaller } from './secret-caller'

/**
 * The caller's workspace credentials (secret token). Every answer is masked: a secret field is
 * `••••` with at most its last four characters, and nothing here ever returns it whole.
 */
export function registerCredentialRoutes(app: Hono, ctx: AppContext): void {
  const { vault } = ctx.integrations
  const caller = secretCaller(ctx)
  const readBody = bodyReader(ctx.config.bodyLimits.managementBytes)

  app.get('/v1/credentials', async (c) => {
    const { workspaceId } = await caller(c)
    return c.json({ credentials: await vault.list(workspaceId) })
  })

  app.post('/v1/credentials', async (c) => {
    const { workspaceId } = await caller(c)
    const request = await readBody(c, createCredentialRequestSchema)
    return c.json({ credential: await vault.create(workspaceId, request) })
  })

  app.get('/v1/credentials/:id', async (c) => {
    const { workspaceId } = await caller(c)
    return c.json({ credential: await vault.get(workspaceId, credentialId(c)) })
  })

  app.patch('/v1/credentials/:id', async (c) => {
    const { workspaceId } = await caller(c)
    const id = credentialId(c)
    const request = await readBody(c, updateCredentialRequestSchema)
    return c.json({ credential: await vault.update(workspaceId, id, request) })
  })

  app.delete('/v1/credentials/:id', async (c) => {
    const { workspaceId } = await caller(c)
    const id = credentialId(c)
    await vault.remove(workspaceId, id)
    return c.json({ id, deleted: true })
  })
}

function credentialId(c: Context): string {
  const id = c.req.param('id') ?? ''
  if (!CREDENTIAL_ID_PATTERN.test(id)) throw new HttpError('not_found', 'No credentials have this id.')
  return id
}
