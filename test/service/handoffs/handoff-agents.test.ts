import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useTestDatabase } from '../helpers/database'
import { agentToken, publishHandoffFlow, startHandedOver } from '../helpers/handoffs'
import { createTestService, type TestService } from '../helpers/service'

/**
 * The workspace's people, as a person in the console reads them to hand a conversation on: ids,
 * names and pictures of its agent tokens, readable with an agent token, never a token's value or
 * hint, and never another workspace's people.
 */
const db = useTestDatabase()
let svc: TestService

beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(async () => {
  await svc.close()
})

describe('the list of agents', () => {
  it('names the workspace’s agents for an agent token, with nothing of their tokens, and a transfer takes an id from it', async () => {
    const grace = await agentToken(svc, 'Grace')
    const ada = await agentToken(svc, 'Ada')
    const listed = await svc.call('GET', '/v1/handoffs/agents', { token: grace.value })
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual({
      agents: [
        { id: ada.id, name: 'Ada', avatarUrl: 'https://example.com/Ada.png' },
        { id: grace.id, name: 'Grace', avatarUrl: 'https://example.com/Grace.png' },
      ],
    })
    // No token's value nor any part of it, whoever reads.
    for (const value of [grace.value, ada.value, svc.tokens.secret]) expect(listed.text).not.toContain(value.slice(-6))
    expect((await svc.call('GET', '/v1/handoffs/agents', { token: svc.tokens.secret })).body).toEqual(listed.body)

    const flowId = await publishHandoffFlow(svc)
    const { handoffId } = await startHandedOver(svc, flowId)
    expect((await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: grace.value })).status).toBe(200)
    const target = listed.body.agents.find((agent: { name: string }) => agent.name === 'Ada')
    const moved = await svc.call('POST', `/v1/handoffs/${handoffId}/transfer`, { token: grace.value, json: { agentTokenId: target.id } })
    expect(moved.status).toBe(200)
    expect(moved.body.handoff.agent).toEqual({ name: 'Ada', avatarUrl: 'https://example.com/Ada.png' })
  })

  it('gives another workspace’s agent token its own people only, and nothing to a publishable token', async () => {
    await agentToken(svc, 'Ada')
    const stranger = await agentToken(svc, 'Mallory', svc.tokens.otherSecret)
    const theirs = await svc.call('GET', '/v1/handoffs/agents', { token: stranger.value })
    expect(theirs.status).toBe(200)
    expect(theirs.body.agents).toEqual([{ id: stranger.id, name: 'Mallory', avatarUrl: 'https://example.com/Mallory.png' }])
    // The list's ids do not reach across either: a transfer to another workspace's agent is refused.
    const flowId = await publishHandoffFlow(svc)
    const { handoffId } = await startHandedOver(svc, flowId)
    await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: svc.tokens.secret })
    const across = await svc.call('POST', `/v1/handoffs/${handoffId}/transfer`, {
      token: svc.tokens.secret,
      json: { agentTokenId: stranger.id },
    })
    expect(across.status).toBe(400)
    for (const token of [svc.tokens.publishable, undefined]) {
      const refused = await svc.call('GET', '/v1/handoffs/agents', token ? { token } : {})
      expect(refused.status).toBeGreaterThanOrEqual(401)
      expect(refused.status).toBeLessThanOrEqual(403)
      expect(refused.text).not.toContain('Ada')
    }
  })
})
