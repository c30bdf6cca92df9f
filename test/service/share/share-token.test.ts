import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hashToken } from '../../../src/service/ids'
import { createShareTokens, SHARE_TOKEN_LABEL } from '../../../src/service/share/share-token'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, OTHER_WORKSPACE, WORKSPACE, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

/** The token must do what the widget needs from it: read the workspace's published flows. */
async function readsPublishedFlow(token: string, flowId: string): Promise<number> {
  return (await svc.call('GET', `/v1/flows/${flowId}/publishedFlow`, { token })).status
}

async function publishedIn(workspaceId: string, secret: string) {
  const res = await svc.call('POST', '/v1/flows/import', { token: secret, json: { workspaceId, flow: greetingFlow() } })
  const flow = res.body.flow as { id: string }
  await svc.call('POST', `/v1/flows/${flow.id}/publish`, { token: secret })
  return flow
}

describe('share page tokens', () => {
  it('mints one publishable token per workspace, labelled, that reads only that workspace', async () => {
    const tokens = createShareTokens({ tokens: svc.store.tokens, now: svc.clock.now })
    const mine = await publishOverHttp(svc, (await importOverHttp(svc, greetingFlow())).id)
    const theirs = await publishedIn(OTHER_WORKSPACE, svc.tokens.otherSecret)

    const [first, concurrent] = await Promise.all([tokens.tokenFor(WORKSPACE), tokens.tokenFor(WORKSPACE)])
    expect(first).toMatch(/^fs_pk_/)
    expect(concurrent).toBe(first)
    expect(await tokens.tokenFor(WORKSPACE)).toBe(first)
    const record = await svc.store.tokens.findByHash(hashToken(first))
    expect(record).toMatchObject({ workspaceId: WORKSPACE, kind: 'publishable', label: SHARE_TOKEN_LABEL })

    expect(await readsPublishedFlow(first, mine.flowId)).toBe(200)
    expect(await readsPublishedFlow(first, theirs.id)).toBe(404)
    const other = await tokens.tokenFor(OTHER_WORKSPACE)
    expect(other).not.toBe(first)
    expect(await readsPublishedFlow(other, theirs.id)).toBe(200)
  })

  it("uses the operator's configured publishable token for its own workspace only", async () => {
    const tokens = createShareTokens({ tokens: svc.store.tokens, configuredToken: svc.tokens.publishable, now: svc.clock.now })
    expect(await tokens.tokenFor(WORKSPACE)).toBe(svc.tokens.publishable)
    expect(await tokens.tokenFor(OTHER_WORKSPACE)).not.toBe(svc.tokens.publishable)
  })

  it('ignores a configured token the database does not know, or that is secret', async () => {
    for (const configuredToken of [`fs_pk_${'x'.repeat(43)}`, svc.tokens.secret]) {
      const tokens = createShareTokens({ tokens: svc.store.tokens, configuredToken, now: svc.clock.now })
      const token = await tokens.tokenFor(WORKSPACE)
      expect(token).not.toBe(configuredToken)
      expect(token).toMatch(/^fs_pk_/)
    }
  })

  it('replaces a token that was deleted from the database', async () => {
    const tokens = createShareTokens({ tokens: svc.store.tokens, now: svc.clock.now })
    const first = await tokens.tokenFor(WORKSPACE)
    await svc.store.database.query(`DELETE FROM ${svc.store.tables.apiTokens} WHERE token_hash = $1`, [hashToken(first)])
    const second = await tokens.tokenFor(WORKSPACE)
    expect(second).not.toBe(first)
    expect(await svc.store.tokens.findByHash(hashToken(second))).toBeDefined()
  })
})
