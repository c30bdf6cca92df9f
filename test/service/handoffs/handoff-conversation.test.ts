import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { handoffDetailSchema, handoffEventSchema, handoffListResponseSchema } from '../../../src/protocol/handoff'
import { useTestDatabase } from '../helpers/database'
import { agentToken, data, openStream, publishHandoffFlow, startHandedOver, visitorPath } from '../helpers/handoffs'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService

beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(async () => {
  await svc.close()
})

describe('a conversation handed to a person', () => {
  it('waits, is claimed, both sides talk live, and the flow goes on with what the person set', async () => {
    const flowId = await publishHandoffFlow(svc)
    const ada = await agentToken(svc, 'Ada')
    const inbox = await openStream(svc, '/v1/handoffs/events', { authorization: `Bearer ${ada.value}` })
    expect(inbox.status).toBe(200)
    expect(inbox.headers.get('content-type')).toMatch(/^text\/event-stream/)

    const { sessionId, handoffId, start } = await startHandedOver(svc, flowId)
    expect(start.body.messages.map((m: any) => m.content.plainText)).toEqual(['Hello! Let me find someone.', 'Waiting for a person…'])
    const [appeared] = await inbox.take(1, (event) => event.type === 'handoff')
    expect(data(appeared!)).toMatchObject({ type: 'handoff', handoff: { id: handoffId, status: 'waiting', flowName: 'Support' } })

    const visitor = await openStream(svc, visitorPath(sessionId, 'events'))
    expect(visitor.status).toBe(200)
    const [waiting] = await visitor.take(1)
    expect(waiting).toMatchObject({ id: '1', type: 'status' })
    expect(handoffEventSchema.parse(data(waiting!))).toMatchObject({ seq: 1, status: 'waiting' })

    const list = await svc.call('GET', '/v1/handoffs', { token: ada.value })
    expect(handoffListResponseSchema.parse(list.body).handoffs.map((h) => h.id)).toEqual([handoffId])

    const claimed = await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: ada.value })
    expect(claimed.status).toBe(200)
    expect(claimed.body.handoff).toMatchObject({ status: 'live', agent: { name: 'Ada', avatarUrl: 'https://example.com/Ada.png' } })
    const [live] = await visitor.take(1)
    expect(data(live!)).toMatchObject({ seq: 2, type: 'status', status: 'live', agent: { name: 'Ada' } })

    const sent = await svc.call('POST', visitorPath(sessionId, 'messages'), {
      json: { text: 'My order never came' },
      headers: { 'idempotency-key': 'm-1' },
    })
    expect(sent.status).toBe(201)
    expect(sent.body).toMatchObject({ seq: 3, type: 'message', author: 'visitor', text: 'My order never came' })
    const [fromVisitor] = await inbox.take(1, (event) => event.type === 'message')
    expect(data(fromVisitor!)).toMatchObject({ handoffId, event: { author: 'visitor', text: 'My order never came' } })

    const typing = await svc.call('POST', `/v1/handoffs/${handoffId}/typing`, { token: ada.value, json: { typing: true } })
    expect(typing.status).toBe(204)
    const [typed] = await visitor.take(1, (event) => event.type === 'typing')
    expect(typed!.id).toBeUndefined()
    expect(data(typed!)).toEqual({ author: 'agent', typing: true, agent: { name: 'Ada', avatarUrl: 'https://example.com/Ada.png' } })

    const reply = await svc.call('POST', `/v1/handoffs/${handoffId}/messages`, {
      token: ada.value,
      json: { text: 'Sorry! What is your e-mail?' },
    })
    expect(reply.status).toBe(201)
    const [answer] = await visitor.take(1, (event) => event.type === 'message')
    expect(data(answer!)).toMatchObject({ author: 'agent', text: 'Sorry! What is your e-mail?', agent: { name: 'Ada' } })

    const set = await svc.call('POST', `/v1/handoffs/${handoffId}/variables`, {
      token: ada.value,
      json: { name: 'Email', value: 'grace@example.com' },
    })
    expect(set.status).toBe(200)
    expect(handoffDetailSchema.parse(set.body).variables).toEqual([{ id: 'vEmail', name: 'Email', value: 'grace@example.com' }])

    const ended = await svc.call('POST', `/v1/handoffs/${handoffId}/end`, { token: ada.value })
    expect(ended.status).toBe(200)
    expect(ended.body.handoff).toMatchObject({ status: 'ended' })
    const rest = await visitor.rest()
    const continued = rest.find((event) => event.type === 'continued')
    expect(rest.map((event) => event.type)).toEqual(['status', 'continued'])
    expect(data(continued!).step.messages.map((m: any) => m.content.plainText)).toEqual(['Thanks, we will write to grace@example.com.'])

    // Every event once, numbered without gaps; a new stream after the end answers 204.
    expect(visitor.events.filter((event) => event.id !== undefined).map((event) => Number(event.id))).toEqual([1, 2, 3, 4, 5, 6])
    const again = await openStream(svc, visitorPath(sessionId, 'events'), { 'last-event-id': '6' })
    expect(again.status).toBe(204)
    inbox.close()
  })

  it('stores a visitor message sent twice with one Idempotency-Key once, and refuses the key with another text', async () => {
    const flowId = await publishHandoffFlow(svc)
    const { sessionId, handoffId } = await startHandedOver(svc, flowId)
    const send = (text: string) =>
      svc.call('POST', visitorPath(sessionId, 'messages'), { json: { text }, headers: { 'idempotency-key': 'same' } })
    const first = await send('Hello?')
    const second = await send('Hello?')
    expect(second.status).toBe(201)
    expect(second.body).toEqual(first.body)
    expect((await send('Something else')).status).toBe(409)
    const detail = await svc.call('GET', `/v1/handoffs/${handoffId}`, { token: svc.tokens.secret })
    expect(detail.body.events.filter((event: any) => event.type === 'message')).toHaveLength(1)
  })

  it('refuses a message over the size limit with the error body, and continueChat while a person has the conversation', async () => {
    const flowId = await publishHandoffFlow(svc)
    const { sessionId } = await startHandedOver(svc, flowId)
    const long = await svc.call('POST', visitorPath(sessionId, 'messages'), { json: { text: 'x'.repeat(4_001) } })
    expect(long.status).toBe(400)
    expect(long.body.error.code).toBe('invalid_body')
    const typed = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message: 'hello' } })
    expect(typed.status).toBe(409)
  })

  it('lets the visitor leave the queue: the flow takes the "no one answered" exit', async () => {
    const flowId = await publishHandoffFlow(svc)
    const { sessionId, handoffId } = await startHandedOver(svc, flowId)
    const left = await svc.call('POST', visitorPath(sessionId, 'leave'), { json: {} })
    expect(left.body).toEqual({ status: 'left' })
    const poll = await svc.call('GET', `${visitorPath(sessionId, 'events')}?poll=1&after=1&timeoutSeconds=0`)
    expect(poll.body.status).toBe('left')
    const continued = poll.body.events.find((event: any) => event.type === 'continued')
    expect(continued.step.messages.map((m: any) => m.content.plainText)).toEqual(['No one is free right now. Your e-mail?'])
    expect(continued.step.input).toMatchObject({ type: 'email input' })
    // The flow goes on as usual afterwards.
    const answered = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message: 'grace@example.com' } })
    expect(answered.status).toBe(200)
    // Leaving again changes nothing.
    expect((await svc.call('POST', visitorPath(sessionId, 'leave'), { json: {} })).body).toEqual({ status: 'left' })
    const after = await svc.call('GET', `/v1/handoffs/${handoffId}`, { token: svc.tokens.secret })
    expect(after.body.events.filter((event: any) => event.type === 'continued')).toHaveLength(1)
  })

  it('answers a long poll as soon as an event comes', async () => {
    const flowId = await publishHandoffFlow(svc)
    const { sessionId, handoffId } = await startHandedOver(svc, flowId)
    const polling = svc.call('GET', `${visitorPath(sessionId, 'events')}?poll=1&after=1&timeoutSeconds=20`)
    await new Promise((resolve) => setTimeout(resolve, 50))
    await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: svc.tokens.secret })
    const answer = await polling
    expect(answer.status).toBe(200)
    expect(answer.body.events).toMatchObject([{ seq: 2, type: 'status', status: 'live' }])
  })
})

describe('the conversation with a person in the result', () => {
  it('is in the result detail, the CSV export and the JSON Lines export', async () => {
    const flowId = await publishHandoffFlow(svc)
    const ada = await agentToken(svc, 'Ada')
    const { sessionId, handoffId, resultId } = await startHandedOver(svc, flowId)
    await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: ada.value })
    await svc.call('POST', visitorPath(sessionId, 'messages'), { json: { text: 'Where is my parcel?' } })
    await svc.call('POST', `/v1/handoffs/${handoffId}/messages`, { token: ada.value, json: { text: '=HYPERLINK("x") it left today' } })
    await svc.call('POST', `/v1/handoffs/${handoffId}/end`, { token: ada.value })

    const detail = await svc.call('GET', `/v1/flows/${flowId}/results/${resultId}`, { token: svc.tokens.secret })
    expect(detail.body.result.conversation).toMatchObject([
      { handoffId, author: 'visitor', text: 'Where is my parcel?' },
      { handoffId, author: 'agent', text: '=HYPERLINK("x") it left today', agent: { name: 'Ada' } },
    ])
    const csv = await svc.call('GET', `/v1/flows/${flowId}/results/export?format=csv`, { token: svc.tokens.secret })
    expect(csv.text.split('\r\n')[0]).toContain('Conversation with a person')
    // One cell, a line per message, each starting with its time: no line of it starts a formula.
    expect(csv.text).toMatch(/,"\[[^\]]+\] Visitor: Where is my parcel\?\n\[[^\]]+\] Ada: =HYPERLINK\(""x""\) it left today"\r\n$/)
    const jsonl = await svc.call('GET', `/v1/flows/${flowId}/results/export?format=jsonl`, { token: svc.tokens.secret })
    const line = JSON.parse(jsonl.text.trim())
    expect(line.conversation.map((entry: any) => [entry.author, entry.text])).toEqual([
      ['visitor', 'Where is my parcel?'],
      ['agent', '=HYPERLINK("x") it left today'],
    ])
  })
})
