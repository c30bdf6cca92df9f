import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import { outboxResponseSchema, resultLogsResponseSchema } from '../../../src/protocol/results'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, OTHER_WORKSPACE, type TestService, WORKSPACE } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const message = (subject: string) => ({ from: 'bot@example.com', to: ['a@example.com'], cc: [], bcc: [], subject, text: 'Hi' })

describe('GET /v1/outbox', () => {
  it("lists the caller's workspace e-mails, newest first, within the limit", async () => {
    for (const [i, workspaceId] of [WORKSPACE, WORKSPACE, OTHER_WORKSPACE].entries()) {
      svc.clock.advance(1_000)
      await svc.store.outbox.add({
        id: `mail-${i}`,
        workspaceId,
        flowId: null,
        resultId: null,
        message: message(`Mail ${i}`),
        createdAt: svc.clock.now().toISOString(),
      })
    }
    const res = await svc.call('GET', '/v1/outbox', { token: svc.tokens.secret })
    expect(res.status).toBe(200)
    const { emails } = outboxResponseSchema.parse(res.body)
    expect(emails.map((e) => e.message.subject)).toEqual(['Mail 1', 'Mail 0'])
    expect(emails[0]).not.toHaveProperty('workspaceId')
    const one = await svc.call('GET', '/v1/outbox?limit=1', { token: svc.tokens.secret })
    expect(one.body.emails).toHaveLength(1)
    for (const limit of ['0', '201', 'ten', '-1']) {
      const bad = await svc.call('GET', `/v1/outbox?limit=${limit}`, { token: svc.tokens.secret })
      expect(bad.status).toBe(400)
      expect(errorBodySchema.parse(bad.body).error.code).toBe('invalid_query')
    }
    expect((await svc.call('GET', '/v1/outbox', { token: svc.tokens.publishable })).status).toBe(403)
    expect((await svc.call('GET', '/v1/outbox')).status).toBe(401)
  })
})

describe('GET /v1/flows/{flowId}/results/{resultId}/logs', () => {
  it("shows a result's stored logs to its own workspace only", async () => {
    const base = greetingFlow()
    // A block the engine does not know is skipped with a log, stored with the result.
    base.groups[0].blocks.unshift({ id: 'mystery', type: 'Something new' })
    const flow = await importOverHttp(svc, base)
    await publishOverHttp(svc, flow.id)
    const start = await svc.call('POST', `/v1/flows/${flow.id}/startChat`)
    const { resultId, sessionId } = start.body
    const path = `/v1/flows/${flow.id}/results/${resultId}/logs`
    const res = await svc.call('GET', path, { token: svc.tokens.secret })
    expect(res.status).toBe(200)
    expect(resultLogsResponseSchema.parse(res.body).logs).toEqual([
      {
        status: 'info',
        description: 'Block type Something new is not supported',
        details: { blockId: 'mystery', type: 'Something new' },
        sessionId,
        createdAt: svc.clock.now().toISOString(),
      },
    ])
    // Another workspace's flow answers like an unknown one.
    expect((await svc.call('GET', path, { token: svc.tokens.otherSecret })).status).toBe(404)
    expect((await svc.call('GET', `/v1/flows/${flow.id}/results/unknown/logs`, { token: svc.tokens.secret })).status).toBe(404)
    expect((await svc.call('GET', `/v1/flows/nope/results/${resultId}/logs`, { token: svc.tokens.secret })).status).toBe(404)
  })
})
