import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hashToken } from '../../../src/service/ids'
import { createShareTokens, SHARE_TOKEN_LABEL } from '../../../src/service/share/share-token'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, OTHER_WORKSPACE, type TestService, WORKSPACE } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const shareTokens = (more: { configuredToken?: string } = {}) =>
  createShareTokens({ tokens: svc.store.tokens, workspaces: svc.store.workspaces, now: svc.clock.now, ...more })

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
    const tokens = shareTokens()
    const mine = await publishOverHttp(svc, (await importOverHttp(svc, greetingFlow())).id)
    const theirs = await publishedIn(OTHER_WORKSPACE, svc.tokens.otherSecret)

    const [first, concurrent] = (await Promise.all([tokens.tokenFor(WORKSPACE), tokens.tokenFor(WORKSPACE)])) as [string, string]
    expect(first).toMatch(/^fs_pk_/)
    expect(concurrent).toBe(first)
    expect(await tokens.tokenFor(WORKSPACE)).toBe(first)
    const record = await svc.store.tokens.findByHash(hashToken(first))
    expect(record).toMatchObject({ workspaceId: WORKSPACE, kind: 'publishable', label: SHARE_TOKEN_LABEL })

    expect(await readsPublishedFlow(first, mine.flowId)).toBe(200)
    expect(await readsPublishedFlow(first, theirs.id)).toBe(404)
    const other = (await tokens.tokenFor(OTHER_WORKSPACE))!
    expect(other).not.toBe(first)
    expect(await readsPublishedFlow(other, theirs.id)).toBe(200)
  })

  it("uses the operator's configured publishable token for its own workspace only", async () => {
    const tokens = shareTokens({ configuredToken: svc.tokens.publishable })
    expect(await tokens.tokenFor(WORKSPACE)).toBe(svc.tokens.publishable)
    expect(await tokens.tokenFor(OTHER_WORKSPACE)).not.toBe(svc.tokens.publishable)
  })

  it('ignores a configured token the database does not know, or that is secret', async () => {
    for (const configuredToken of [`fs_pk_${'x'.repeat(43)}`, svc.tokens.secret]) {
      const tokens = shareTokens({ configuredToken })
      const token = (await tokens.tokenFor(WORKSPACE))!
      expect(token).not.toBe(configuredToken)
      expect(token).toMatch(/^fs_pk_/)
    }
  })

  it('replaces a token that was deleted from the database', async () => {
    const tokens = shareTokens()
    const first = (await tokens.tokenFor(WORKSPACE))!
    await svc.store.database.query(`DELETE FROM ${svc.store.tables.apiTokens} WHERE token_hash = $1`, [hashToken(first)])
    const second = (await tokens.tokenFor(WORKSPACE))!
    expect(second).not.toBe(first)
    expect(await svc.store.tokens.findByHash(hashToken(second))).toBeDefined()
  })

  it("mints none again once the workspace revoked its share pages' token, until the owner creates a share-page token", async () => {
    const flow = await publishOverHttp(svc, (await importOverHttp(svc, greetingFlow())).id)
    // Two processes, each with its own token, as after a restart or beside another process.
    const [one, two] = [shareTokens(), shareTokens()]
    const first = (await one.tokenFor(WORKSPACE))!
    const second = (await two.tokenFor(WORKSPACE))!
    const listed = await svc.call('GET', '/v1/tokens', { token: svc.tokens.secret })
    const minted = (listed.body.tokens as { id: string; label: string }[]).filter((token) => token.label === SHARE_TOKEN_LABEL)
    expect(minted).toHaveLength(2)

    expect((await svc.call('DELETE', `/v1/tokens/${minted[0]!.id}`, { token: svc.tokens.secret })).status).toBe(200)
    // Both are gone (they are one thing: the share pages' token), and neither process mints another.
    expect(await readsPublishedFlow(first, flow.flowId)).toBe(401)
    expect(await readsPublishedFlow(second, flow.flowId)).toBe(401)
    expect(await one.tokenFor(WORKSPACE)).toBeUndefined()
    expect(await two.tokenFor(WORKSPACE)).toBeUndefined()
    expect(await shareTokens().tokenFor(WORKSPACE)).toBeUndefined()
    const after = await svc.call('GET', '/v1/tokens', { token: svc.tokens.secret })
    expect((after.body.tokens as { label: string }[]).filter((token) => token.label === SHARE_TOKEN_LABEL)).toEqual([])
    // Another workspace's share pages are not concerned.
    expect(await one.tokenFor(OTHER_WORKSPACE)).toMatch(/^fs_pk_/)

    const created = await svc.call('POST', '/v1/tokens', {
      token: svc.tokens.secret,
      json: { kind: 'publishable', label: SHARE_TOKEN_LABEL },
    })
    expect(created.status).toBe(200)
    const again = await one.tokenFor(WORKSPACE)
    expect(again).toMatch(/^fs_pk_/)
    expect(await readsPublishedFlow(again!, flow.flowId)).toBe(200)
  })
})
