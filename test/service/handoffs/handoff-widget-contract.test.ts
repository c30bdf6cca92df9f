import { afterEach, describe, expect, it } from 'vitest'
import { useTestDatabase } from '../helpers/database'
import { agentToken, data, openStream, publishHandoffFlow, startHandedOver, visitorPath } from '../helpers/handoffs'
import { createTestService, type TestService } from '../helpers/service'

/**
 * What the widget's live chunk relies on of the visitor's routes (src/widget/transport/handoff-feed.ts),
 * each point a way the chunk would lose, repeat or wait for a message if the service answered otherwise.
 */
const db = useTestDatabase()
let svc: TestService

afterEach(async () => {
  await svc.close()
})

describe("the visitor's routes, as the widget reads them", () => {
  it('names who answers in a long poll while live, so a page back after the live event can say who it is', async () => {
    svc = await createTestService(db)
    const { sessionId, handoffId } = await startHandedOver(svc, await publishHandoffFlow(svc))
    const waiting = await svc.call('GET', `${visitorPath(sessionId, 'events')}?poll=1&timeoutSeconds=0`)
    expect(waiting.body.agent).toBeUndefined()
    const ada = await agentToken(svc, 'Ada')
    await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: ada.value })
    const seq = (await svc.call('GET', `${visitorPath(sessionId, 'events')}?poll=1&timeoutSeconds=0`)).body.events.at(-1).seq
    // Nothing new after the live event: the answer still names the person.
    const back = await svc.call('GET', `${visitorPath(sessionId, 'events')}?poll=1&timeoutSeconds=0&after=${seq}`)
    expect(back.body).toEqual({ status: 'live', events: [], agent: { name: 'Ada', avatarUrl: 'https://example.com/Ada.png' } })
  })

  it('takes Last-Event-ID over after when a reconnecting client sends both', async () => {
    svc = await createTestService(db)
    const { sessionId, handoffId } = await startHandedOver(svc, await publishHandoffFlow(svc))
    await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: svc.tokens.secret })
    for (const text of ['one', 'two']) {
      await svc.call('POST', `/v1/handoffs/${handoffId}/messages`, { token: svc.tokens.secret, json: { text } })
    }
    // after=0 alone would replay every event; the header names the one before the last.
    const all = await svc.call('GET', `${visitorPath(sessionId, 'events')}?poll=1&timeoutSeconds=0`)
    const last = all.body.events.at(-1).seq as number
    const stream = await openStream(svc, `${visitorPath(sessionId, 'events')}?after=0`, { 'last-event-id': String(last - 1) })
    const [first] = await stream.take(1, (event) => event.id !== undefined)
    expect(Number(first!.id)).toBe(last)
    expect(data(first!).text).toBe('two')
    stream.close()
  })

  it('answers a long poll with timeoutSeconds=0 at once, empty when nothing is new', async () => {
    svc = await createTestService(db)
    const { sessionId } = await startHandedOver(svc, await publishHandoffFlow(svc))
    const seen = await svc.call('GET', `${visitorPath(sessionId, 'events')}?poll=1&timeoutSeconds=0`)
    const after = seen.body.events.at(-1)?.seq ?? 0
    const answer = await svc.call('GET', `${visitorPath(sessionId, 'events')}?poll=1&after=${after}&timeoutSeconds=0`)
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ status: 'waiting', events: [] })
  })

  it('answers a message with the stored event, which the stream then repeats with the same seq', async () => {
    svc = await createTestService(db)
    const { sessionId } = await startHandedOver(svc, await publishHandoffFlow(svc))
    const stream = await openStream(svc, visitorPath(sessionId, 'events'))
    const sent = await svc.call('POST', visitorPath(sessionId, 'messages'), {
      json: { text: 'Where is my parcel?' },
      headers: { 'Idempotency-Key': 'visitor-line-1' },
    })
    expect(sent.status).toBe(201)
    expect(sent.body).toMatchObject({ type: 'message', author: 'visitor', text: 'Where is my parcel?', seq: expect.any(Number) })
    const [echoed] = await stream.take(1, (event) => event.type === 'message')
    expect(Number(echoed!.id)).toBe(sent.body.seq)
    expect(data(echoed!)).toEqual(sent.body)
    stream.close()
  })

  it('answers a session that does not exist with session_not_found, on the stream, the poll and a message', async () => {
    svc = await createTestService(db)
    const unknown = 'cm0000000000000000000000'
    for (const [method, path, json] of [
      ['GET', visitorPath(unknown, 'events'), undefined],
      ['GET', `${visitorPath(unknown, 'events')}?poll=1&timeoutSeconds=0`, undefined],
      ['POST', visitorPath(unknown, 'messages'), { text: 'hello' }],
    ] as const) {
      const answer = await svc.call(method, path, json === undefined ? {} : { json })
      expect(answer.status, `${method} ${path}`).toBe(404)
      expect(answer.body.error.code, `${method} ${path}`).toBe('session_not_found')
    }
  })
})
