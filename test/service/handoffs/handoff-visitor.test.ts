import { afterEach, describe, expect, it } from 'vitest'
import { CROSS_SESSION_ATTEMPTS } from '../fixtures/handoff-cross-session'
import { useTestDatabase } from '../helpers/database'
import { data, handoffFlow, openStream, publishHandoffFlow, startHandedOver, visitorPath } from '../helpers/handoffs'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService

afterEach(async () => {
  await svc.close()
})

describe("the visitor's live channel", () => {
  it('resumes a dropped stream from Last-Event-ID: nothing lost, nothing twice', async () => {
    svc = await createTestService(db)
    const flowId = await publishHandoffFlow(svc)
    const { sessionId, handoffId } = await startHandedOver(svc, flowId)
    await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: svc.tokens.secret })
    const say = (text: string) => svc.call('POST', `/v1/handoffs/${handoffId}/messages`, { token: svc.tokens.secret, json: { text } })

    const first = await openStream(svc, visitorPath(sessionId, 'events'))
    await say('one')
    await first.take(3)
    const lastSeen = first.lastEventId!
    first.close()
    // Said while the visitor's connection was down.
    await say('two')
    await say('three')
    const second = await openStream(svc, visitorPath(sessionId, 'events'), { 'last-event-id': lastSeen })
    await say('four')
    const resumed = await second.take(3)
    expect(resumed.map((event) => data(event).text)).toEqual(['two', 'three', 'four'])
    const seqs = [...first.events, ...second.events].filter((event) => event.id).map((event) => Number(event.id))
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6])
    // A client that cannot set the header names the position in the query instead.
    const byQuery = await svc.call('GET', `${visitorPath(sessionId, 'events')}?poll=1&after=4`)
    expect(byQuery.body.events.map((event: any) => event.text)).toEqual(['three', 'four'])
    second.close()
  })

  it('ends a stream after its maximum life, with heartbeats meanwhile', async () => {
    svc = await createTestService(db, { config: { handoffs: { ...defaults(), streamMaxSeconds: 5, heartbeatSeconds: 1 } } })
    const flowId = await publishHandoffFlow(svc)
    const { sessionId } = await startHandedOver(svc, flowId)
    const response = await svc.app.request(visitorPath(sessionId, 'events'))
    expect(response.headers.get('cache-control')).toContain('no-cache')
    expect(response.headers.get('x-accel-buffering')).toBe('no')
    const text = await response.text()
    expect(text).toContain(': keep-alive')
    expect(text).toContain('id: 1\nevent: status')
  }, 15_000)

  it('refuses streams past the bounds per address and per workspace with a 429 and the error body', async () => {
    svc = await createTestService(db, { config: { handoffs: { ...defaults(), streamsPerAddress: 2, streamsPerWorkspace: 3 } } })
    const flowId = await publishHandoffFlow(svc)
    const visitors = await Promise.all([1, 2, 3, 4].map(() => startHandedOver(svc, flowId)))
    const from = (address: string) => ({ 'x-forwarded-for': address })
    const a1 = await openStream(svc, visitorPath(visitors[0]!.sessionId, 'events'), from('198.51.100.7'))
    const a2 = await openStream(svc, visitorPath(visitors[1]!.sessionId, 'events'), from('198.51.100.7'))
    const refused = await svc.app.request(visitorPath(visitors[2]!.sessionId, 'events'), { headers: from('198.51.100.7') })
    expect(refused.status).toBe(429)
    expect((await refused.json()).error.code).toBe('rate_limited')
    expect(refused.headers.get('retry-after')).toBeTruthy()
    const b1 = await openStream(svc, visitorPath(visitors[2]!.sessionId, 'events'), from('203.0.113.9'))
    expect(b1.status).toBe(200)
    const full = await svc.app.request(visitorPath(visitors[3]!.sessionId, 'events'), { headers: from('192.0.2.1') })
    expect(full.status).toBe(429)
    // A closed stream gives its place back.
    a1.close()
    await new Promise((resolve) => setTimeout(resolve, 50))
    const again = await openStream(svc, visitorPath(visitors[3]!.sessionId, 'events'), from('198.51.100.7'))
    expect(again.status).toBe(200)
    for (const stream of [a2, b1, again]) stream.close()
  })

  it('answers the flow’s allowed origins only, on the stream and its preflight', async () => {
    svc = await createTestService(db)
    const flowId = await publishHandoffFlow(svc, { ...handoffFlow(), settings: { security: { allowedOrigins: ['https://shop.example'] } } })
    const { sessionId } = await startHandedOver(svc, flowId)
    const preflight = await svc.app.request(visitorPath(sessionId, 'events'), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'last-event-id',
      },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Last-Event-ID')
    const elsewhere = await svc.app.request(`${visitorPath(sessionId, 'events')}?poll=1&timeoutSeconds=0`, {
      headers: { origin: 'https://evil.example' },
    })
    expect(elsewhere.status).toBe(403)
    const allowed = await svc.app.request(`${visitorPath(sessionId, 'events')}?poll=1&timeoutSeconds=0`, {
      headers: { origin: 'https://shop.example' },
    })
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example')
  })

  describe("one session's credentials never reach another's conversation", () => {
    for (const attempt of CROSS_SESSION_ATTEMPTS) {
      it(attempt.tries, async () => {
        svc = await createTestService(db)
        const flowId = await publishHandoffFlow(svc)
        const victim = await startHandedOver(svc, flowId)
        await svc.call('POST', visitorPath(victim.sessionId, 'messages'), { json: { text: 'my card number is 4242' } })
        const mine = await startHandedOver(svc, flowId)
        const request = attempt.request({ mine: mine.sessionId, victimSession: victim.sessionId, victimHandoff: victim.handoffId })
        const answer = await svc.call(request.method, request.path, request.json === undefined ? {} : { json: request.json })
        expect(answer.status).toBe(404)
        expect(answer.body.error.code).toMatch(/not_found/)
        expect(answer.text).not.toContain('4242')
        const victimView = await svc.call('GET', `${visitorPath(victim.sessionId, 'events')}?poll=1&timeoutSeconds=0`)
        expect(victimView.body.status).toBe('waiting')
        expect(victimView.body.events.filter((event: any) => event.type === 'message')).toHaveLength(1)
      })
    }
  })
})

const defaults = () => ({
  streamsPerWorkspace: 500,
  streamsPerAddress: 20,
  streamMaxSeconds: 300,
  heartbeatSeconds: 15,
  messages: { perMinute: 0, burst: 1 },
})
