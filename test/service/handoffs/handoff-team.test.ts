import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useTestDatabase } from '../helpers/database'
import { agentToken, data, handoffFlow, openStream, publishHandoffFlow, startHandedOver, visitorPath } from '../helpers/handoffs'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService

beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(async () => {
  await svc.close()
})

describe('the team and the deadline', () => {
  it('lets one of two agents claiming at once win, and the other is told it was taken', async () => {
    const flowId = await publishHandoffFlow(svc)
    const [ada, grace] = [await agentToken(svc, 'Ada'), await agentToken(svc, 'Grace')]
    for (let round = 0; round < 5; round++) {
      const { handoffId } = await startHandedOver(svc, flowId)
      const answers = await Promise.all(
        [ada, grace].map((agent) => svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: agent.value })),
      )
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
      const detail = await svc.call('GET', `/v1/handoffs/${handoffId}`, { token: ada.value })
      const winner = answers.find((answer) => answer.status === 200)!.body.handoff.agent.name
      expect(detail.body.handoff.agent.name).toBe(winner)
      expect(detail.body.events.filter((event: any) => event.status === 'live')).toHaveLength(1)
    }
  })

  it('takes the "no one answered" exit once the deadline passed, even with no one listening', async () => {
    const flowId = await publishHandoffFlow(svc, handoffFlow({ timeoutSeconds: 60 }))
    const { sessionId, handoffId } = await startHandedOver(svc, flowId)
    svc.clock.advance(59_000)
    expect(await sweep(svc)).toBe(0)
    svc.clock.advance(1_000)
    expect(await sweep(svc)).toBe(1)
    expect(await sweep(svc)).toBe(0)
    const poll = await svc.call('GET', `${visitorPath(sessionId, 'events')}?poll=1&after=1`)
    expect(poll.body.status).toBe('unanswered')
    expect(poll.body.events.map((event: any) => event.type)).toEqual(['status', 'continued'])
    expect(poll.body.events[1].step.messages[0].content.plainText).toBe('No one is free right now. Your e-mail?')
    const claim = await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: svc.tokens.secret })
    expect(claim.status).toBe(409)
  })

  it('leaves a conversation a person claimed in time alone at the deadline', async () => {
    const flowId = await publishHandoffFlow(svc, handoffFlow({ timeoutSeconds: 60 }))
    const { handoffId } = await startHandedOver(svc, flowId)
    await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: svc.tokens.secret })
    svc.clock.advance(3_600_000)
    expect(await sweep(svc)).toBe(0)
    expect((await svc.call('GET', `/v1/handoffs/${handoffId}`, { token: svc.tokens.secret })).body.handoff.status).toBe('live')
  })

  it('goes on with an ended handoff whose flow did not go on (its process stopped in between)', async () => {
    const flowId = await publishHandoffFlow(svc)
    const { sessionId, handoffId } = await startHandedOver(svc, flowId)
    // What a process stopping right after the end leaves: the end recorded, the flow not gone on.
    await svc.store.handoffs.append({
      handoffId,
      change: { kind: 'end', status: 'ended' },
      type: 'status',
      body: { status: 'ended' },
      now: svc.clock.now().toISOString(),
    })
    expect(await sweep(svc)).toBe(0)
    svc.clock.advance(20_000)
    expect(await sweep(svc)).toBe(1)
    const poll = await svc.call('GET', `${visitorPath(sessionId, 'events')}?poll=1&after=2`)
    expect(poll.body.events).toMatchObject([
      { type: 'continued', step: { messages: [{ content: { plainText: 'Thanks, we will write to .' } }] } },
    ])
  })

  it('asks no one outside the opening hours, by the service clock', async () => {
    // The test clock stands at 2026-03-01T09:00Z, a Sunday.
    const flowId = await publishHandoffFlow(
      svc,
      handoffFlow({
        openingHours: { timeZone: 'Europe/Paris', hours: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00' }] },
      }),
    )
    const start = await svc.call('POST', `/v1/flows/${flowId}/startChat`, { json: {} })
    expect(start.body.clientSideActions).toBeUndefined()
    expect(start.body.messages.map((m: any) => m.content.plainText)).toEqual([
      'Hello! Let me find someone.',
      'No one is free right now. Your e-mail?',
    ])
    expect((await svc.call('GET', '/v1/handoffs', { token: svc.tokens.secret })).body.handoffs).toEqual([])
    svc.clock.advance(24 * 3_600_000) // Monday 10:00 in Paris
    const monday = await svc.call('POST', `/v1/flows/${flowId}/startChat`, { json: {} })
    expect(monday.body.clientSideActions).toMatchObject([{ type: 'handoff' }])
  })

  it('lets only the agent who claimed answer, and gives agent tokens nothing but conversations', async () => {
    const flowId = await publishHandoffFlow(svc)
    const [ada, grace] = [await agentToken(svc, 'Ada'), await agentToken(svc, 'Grace')]
    const { handoffId } = await startHandedOver(svc, flowId)
    await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: ada.value })
    const intruder = await svc.call('POST', `/v1/handoffs/${handoffId}/messages`, { token: grace.value, json: { text: 'Hi, I am Grace' } })
    expect(intruder.status).toBe(403)
    expect((await svc.call('POST', `/v1/handoffs/${handoffId}/end`, { token: grace.value })).status).toBe(403)
    const moved = await svc.call('POST', `/v1/handoffs/${handoffId}/transfer`, { token: ada.value, json: { agentTokenId: grace.id } })
    expect(moved.body.handoff.agent.name).toBe('Grace')
    expect(
      (await svc.call('POST', `/v1/handoffs/${handoffId}/messages`, { token: grace.value, json: { text: 'Hi, Grace here' } })).status,
    ).toBe(201)
    expect((await svc.call('POST', `/v1/handoffs/${handoffId}/messages`, { token: ada.value, json: { text: 'Still me?' } })).status).toBe(
      403,
    )
    for (const [method, path] of [
      ['GET', '/v1/flows'],
      ['GET', '/v1/tokens'],
      ['POST', '/v1/tokens'],
      ['GET', `/v1/flows/${flowId}/results`],
    ] as const) {
      const refused = await svc.call(method, path, { token: ada.value, json: method === 'POST' ? {} : undefined })
      expect(refused.status, `${method} ${path}`).toBe(403)
    }
    // Another workspace's secret token sees no such conversation.
    expect((await svc.call('GET', `/v1/handoffs/${handoffId}`, { token: svc.tokens.otherSecret })).status).toBe(404)
    expect((await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: svc.tokens.otherSecret })).status).toBe(404)
  })

  it('makes agent tokens with the name visitors see, lists and revokes them', async () => {
    const made = await svc.call('POST', '/v1/tokens', { token: svc.tokens.secret, json: { kind: 'agent', agent: { name: 'Ada' } } })
    expect(made.body.value).toMatch(/^fs_ak_/)
    expect(made.body.token).toMatchObject({ kind: 'agent', agent: { name: 'Ada' } })
    const nameless = await svc.call('POST', '/v1/tokens', { token: svc.tokens.secret, json: { kind: 'agent' } })
    expect(nameless.status).toBe(400)
    const script = await svc.call('POST', '/v1/tokens', {
      token: svc.tokens.secret,
      json: { kind: 'agent', agent: { name: 'A', avatarUrl: 'javascript:alert(1)' } },
    })
    expect(script.status).toBe(400)
    expect((await svc.call('DELETE', `/v1/tokens/${made.body.token.id}`, { token: svc.tokens.secret })).status).toBe(200)
    expect((await svc.call('GET', '/v1/handoffs', { token: made.body.value })).status).toBe(401)
  })

  it('tells the inbox of every change, and a reconnecting inbox what it missed', async () => {
    const flowId = await publishHandoffFlow(svc)
    const inbox = await openStream(svc, '/v1/handoffs/events', { authorization: `Bearer ${svc.tokens.secret}` })
    const { handoffId } = await startHandedOver(svc, flowId)
    const [first] = await inbox.take(1)
    inbox.close()
    await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: svc.tokens.secret })
    await svc.call('POST', `/v1/handoffs/${handoffId}/messages`, { token: svc.tokens.secret, json: { text: 'Hello' } })
    const again = await openStream(svc, '/v1/handoffs/events', {
      authorization: `Bearer ${svc.tokens.secret}`,
      'last-event-id': first!.id!,
    })
    const missed = await again.take(2)
    expect(missed.map((event) => [event.type, data(event).type])).toEqual([
      ['handoff', 'handoff'],
      ['message', 'message'],
    ])
    expect(data(missed[0]!).handoff.status).toBe('live')
    again.close()
  })
})

async function sweep(svc: TestService): Promise<number> {
  const { HandoffSweep } = await import('../../../src/service/chat/handoff/handoff-sweep')
  return new HandoffSweep(svc.ctx).runDue()
}
