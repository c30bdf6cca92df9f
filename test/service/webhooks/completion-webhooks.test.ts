import { createHmac } from 'node:crypto'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import {
  completionEventSchema,
  setWebhookResponseSchema,
  webhookDeliveriesResponseSchema,
  webhookResponseSchema,
} from '../../../src/protocol/webhooks'
import { type DispatcherOptions, WebhookDispatcher } from '../../../src/service/webhooks/webhook-dispatcher'
import { verifyWebhook } from '../../../src/service/webhooks/webhook-signature'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { collectResult, surveyFlow } from '../helpers/results'
import { type CallResult, createTestService, type TestService } from '../helpers/service'
import { until } from '../helpers/until'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'

/**
 * Completion webhooks against a real receiver on loopback: the service's outbound guard lets the
 * test's own address through (`OUTBOUND_ALLOW_HOSTS`), as an operator's allow list would. The
 * dispatcher runs when the test says (`runDue`), on the test's clock: retries are due when the
 * clock says so, never after a real wait.
 */

const db = useTestDatabase()
let receiver: WebhookReceiver
let svc: TestService
const RETRY_DELAYS_MS = [30_000, 120_000]

beforeAll(async () => {
  receiver = await startWebhookReceiver()
})
afterAll(() => receiver.close())
beforeEach(async () => {
  receiver.calls.length = 0
  receiver.answers.length = 0
  svc = await createTestService(db, { config: { outboundAllowHosts: ['127.0.0.1'] } })
})
afterEach(() => svc.close())

/** A process's dispatcher; every process of a service has the same CREDENTIALS_KEY (svc's). */
const dispatcher = (service: TestService = svc, options: Partial<DispatcherOptions> = {}) =>
  new WebhookDispatcher({
    store: service.store,
    key: svc.integrations.key,
    outbound: service.integrations.outbound,
    now: service.clock.now,
    retryDelaysMs: RETRY_DELAYS_MS,
    ...options,
  })
const secret = (method: string, path: string, json?: unknown) =>
  svc.call(method, path, { token: svc.tokens.secret, ...(json === undefined ? {} : { json }) })
const deliveries = async (flowId: string, token = svc.tokens.secret) =>
  webhookDeliveriesResponseSchema.parse((await svc.call('GET', `/v1/flows/${flowId}/webhook-deliveries?limit=200`, { token })).body)
    .deliveries
function expectError(res: CallResult, status: number, code: string) {
  expect(res.status, res.text).toBe(status)
  expect(errorBodySchema.parse(res.body).error.code).toBe(code)
}

/** A published survey with a webhook to the receiver; returns the flow and the signing secret. */
async function surveyWithWebhook(url = receiver.url) {
  const flow = await importOverHttp(svc, surveyFlow())
  await publishOverHttp(svc, flow.id)
  const set = await secret('PUT', `/v1/flows/${flow.id}/webhook`, { url })
  expect(set.status, set.text).toBe(200)
  return { flow, secret: setWebhookResponseSchema.parse(set.body).secret! }
}

/** Resolves once `count` deliveries of the other workspace's flow have their first attempt recorded. */
async function settled(flowId: string, count: number): Promise<void> {
  while ((await deliveries(flowId, svc.tokens.otherSecret)).filter((delivery) => delivery.attempts.length > 0).length < count) {
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A published survey of the other workspace with a webhook to `url`. */
async function otherSurveyWithWebhook(url: string) {
  const other = (method: string, path: string, json?: unknown) =>
    svc.call(method, path, { token: svc.tokens.otherSecret, ...(json === undefined ? {} : { json }) })
  const imported = await other('POST', '/v1/flows/import', { workspaceId: 'other', flow: surveyFlow({ name: 'Other survey' }) })
  expect(imported.status, imported.text).toBe(200)
  const flow = imported.body.flow
  expect((await other('POST', `/v1/flows/${flow.id}/publish`)).status).toBe(200)
  expect((await other('PUT', `/v1/flows/${flow.id}/webhook`, { url })).status).toBe(200)
  return flow
}

/** What a receiver does with the Standard Webhooks headers, written here with node:crypto alone. */
function signatureIsValid(secretText: string, call: { headers: Record<string, unknown>; body: string }): boolean {
  const key = Buffer.from(secretText.replace(/^whsec_/, ''), 'base64')
  const signed = `${call.headers['webhook-id']}.${call.headers['webhook-timestamp']}.${call.body}`
  const expected = `v1,${createHmac('sha256', key).update(signed).digest('base64')}`
  return String(call.headers['webhook-signature']).split(' ').includes(expected)
}

describe('completion webhooks', () => {
  it('call the flow’s address once a result completes, signed so the receiver can check it', async () => {
    const { flow, secret: signingSecret } = await surveyWithWebhook()
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    // Read back, the webhook never shows its secret.
    const read = await secret('GET', `/v1/flows/${flow.id}/webhook`)
    expect(webhookResponseSchema.parse(read.body).webhook).toMatchObject({ url: receiver.url })
    expect(read.text).not.toContain(signingSecret.slice(6))

    // An unfinished conversation queues nothing; a finished one queues one delivery.
    await collectResult(svc, flow.id, ['Ada'])
    const resultId = await collectResult(svc, flow.id, ['Grace', 'grace@example.com', '36'])
    expect(await dispatcher().runDue()).toBe(1)

    expect(receiver.calls).toHaveLength(1)
    const [call] = receiver.calls
    expect(call!.headers['content-type']).toBe('application/json')
    expect(signatureIsValid(signingSecret, call!)).toBe(true)
    const headers = {
      id: String(call!.headers['webhook-id']),
      timestamp: String(call!.headers['webhook-timestamp']),
      signature: String(call!.headers['webhook-signature']),
    }
    const nowSeconds = Math.floor(svc.clock.now().getTime() / 1000)
    expect(verifyWebhook(signingSecret, headers, call!.body, nowSeconds)).toBe(true)
    // A changed body, another secret, or the same request replayed later do not pass.
    expect(verifyWebhook(signingSecret, headers, call!.body.replace('Grace', 'Mallory'), nowSeconds)).toBe(false)
    expect(signatureIsValid(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, call!)).toBe(false)
    expect(verifyWebhook(signingSecret, headers, call!.body, nowSeconds + 3_600)).toBe(false)

    const event = completionEventSchema.parse(JSON.parse(call!.body))
    expect(event.data.flow).toEqual({ id: flow.id, publicId: flow.publicId, name: 'Survey' })
    expect(event.data.result).toMatchObject({
      id: resultId,
      isCompleted: true,
      cells: { 'b-name': 'Grace', 'b-email': 'grace@example.com', 'b-age': '36' },
    })
    expect(event.data.columns.map((column) => column.name)).toContain('Name')

    const [delivery] = await deliveries(flow.id)
    expect(delivery).toMatchObject({
      id: headers.id,
      resultId,
      event: 'result.completed',
      status: 'delivered',
      nextAttemptAt: null,
      attempts: [{ status: 204 }],
    })
    expect(delivery!.request).toEqual({
      headers: {
        'content-type': 'application/json',
        'webhook-id': headers.id,
        'webhook-timestamp': headers.timestamp,
        'webhook-signature': headers.signature,
      },
      body: call!.body,
    })
    // Nothing more is due.
    expect(await dispatcher().runDue()).toBe(0)
  })

  it('retry with backoff after the receiver fails, with the same id and body, until it answers 2xx', async () => {
    const { flow, secret: signingSecret } = await surveyWithWebhook()
    receiver.answers.push(500)
    await collectResult(svc, flow.id, ['Ada', 'ada@example.com', '36'])
    const sender = dispatcher()
    expect(await sender.runDue()).toBe(1)
    let [delivery] = await deliveries(flow.id)
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: [{ status: 500 }],
      nextAttemptAt: new Date(svc.clock.now().getTime() + RETRY_DELAYS_MS[0]!).toISOString(),
    })

    // Not due yet: nothing is sent.
    expect(await sender.runDue()).toBe(0)
    svc.clock.advance(RETRY_DELAYS_MS[0]!)
    expect(await sender.runDue()).toBe(1)
    ;[delivery] = await deliveries(flow.id)
    expect(delivery).toMatchObject({ status: 'delivered', attempts: [{ status: 500 }, { status: 204 }] })

    const [first, second] = receiver.calls
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id'])
    expect(second!.body).toBe(first!.body)
    expect(Number(second!.headers['webhook-timestamp'])).toBeGreaterThan(Number(first!.headers['webhook-timestamp']))
    expect(signatureIsValid(signingSecret, second!)).toBe(true)
  })

  it('give up as failed after the last retry, and record why each attempt failed', async () => {
    const { flow } = await surveyWithWebhook()
    receiver.answers.push(503, 500, 502)
    await collectResult(svc, flow.id, ['Ada', 'ada@example.com', '36'])
    const sender = dispatcher()
    for (const wait of [0, ...RETRY_DELAYS_MS]) {
      svc.clock.advance(wait)
      expect(await sender.runDue()).toBe(1)
    }
    svc.clock.advance(24 * 3_600_000)
    expect(await sender.runDue()).toBe(0)
    const [delivery] = await deliveries(flow.id)
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null, attempts: [{ status: 503 }, { status: 500 }, { status: 502 }] })
  })

  it('go through the outbound guard: a private address not allowed is refused, nothing reaches it, and it fails at once', async () => {
    await svc.close()
    svc = await createTestService(db)
    const { flow } = await surveyWithWebhook()
    await collectResult(svc, flow.id, ['Ada', 'ada@example.com', '36'])
    expect(await dispatcher().runDue()).toBe(1)
    expect(receiver.calls).toHaveLength(0)
    const [delivery] = await deliveries(flow.id)
    // Refused, it would be refused again: failed at once rather than retried for a day and a half.
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null })
    expect(delivery!.attempts).toHaveLength(1)
    expect(delivery!.attempts[0]!.error).toBe('Refused to connect to 127.0.0.1: loopback (127.0.0.0/8)')
    svc.clock.advance(RETRY_DELAYS_MS[0]!)
    expect(await dispatcher().runDue()).toBe(0)
  })

  it('are sent once by one of several processes, and after a process stopped mid-call, by another', async () => {
    const { flow } = await surveyWithWebhook()
    // Another process of the service: its own store and dispatcher on the same database.
    const other = await createTestService(db, { schema: svc.schema, config: { outboundAllowHosts: ['127.0.0.1'] } })
    try {
      other.clock.advance(svc.clock.now().getTime() - other.clock.now().getTime())
      for (let n = 0; n < 4; n++) await collectResult(svc, flow.id, [`Visitor ${n}`, `v${n}@example.com`, '30'])
      const sent = await Promise.all([dispatcher().runDue(), dispatcher(other).runDue(), dispatcher().runDue()])
      expect(sent.reduce((a, b) => a + b, 0)).toBe(4)
      expect(receiver.calls).toHaveLength(4)
      expect(new Set(receiver.calls.map((call) => call.headers['webhook-id'])).size).toBe(4)

      // A process claims a delivery and stops before sending it: once the claim's lease is over,
      // another process sends it.
      await collectResult(svc, flow.id, ['Late', 'late@example.com', '40'])
      expect(await svc.store.webhooks.claimDue('a-process-that-stopped', svc.clock.now(), 60_000, 10)).toHaveLength(1)
      expect(await dispatcher(other).runDue()).toBe(0)
      other.clock.advance(60_000)
      expect(await dispatcher(other).runDue()).toBe(1)
      expect(receiver.calls).toHaveLength(5)
      expect((await deliveries(flow.id)).every((delivery) => delivery.status === 'delivered')).toBe(true)
    } finally {
      await other.integrations.close()
      await other.store.close()
    }
  })

  it("keep a tenant whose receiver never answers from holding another tenant's webhooks", async () => {
    const silent = await startWebhookReceiver({ neverAnswers: true })
    const sender = dispatcher(svc, { timeoutMs: 5_000, perWorkspace: 4 })
    try {
      // One tenant completes 25 results (more than any batch) to a receiver that never answers…
      const { flow: stuck } = await surveyWithWebhook(silent.url)
      for (let n = 0; n < 25; n++) await collectResult(svc, stuck.id, [`Visitor ${n}`, `v${n}@example.com`, '30'])
      // …then another tenant completes one.
      const quick = await otherSurveyWithWebhook(receiver.url)
      await collectResult(svc, quick.id, ['Ada', 'ada@example.com', '36'])

      sender.start(50)
      await until(() => receiver.calls.length === 1)
      // Sent while the stuck tenant's first calls are still unanswered, which hold its own four slots only.
      const held = await deliveries(stuck.id)
      expect(held.filter((delivery) => delivery.attempts.length > 0)).toEqual([])
      expect(held.filter((delivery) => delivery.status === 'sending')).toHaveLength(4)
      await until(() => silent.calls.length === 4)
      expect(silent.calls).toHaveLength(4)
      await settled(quick.id, 1)
      expect((await deliveries(quick.id, svc.tokens.otherSecret))[0]).toMatchObject({ status: 'delivered', attempts: [{ status: 204 }] })
    } finally {
      await silent.close()
      await sender.stop()
    }
  })

  it('keep to their share on every process, and send each delivery once', async () => {
    const silent = await startWebhookReceiver({ neverAnswers: true })
    const other = await createTestService(db, { schema: svc.schema, config: { outboundAllowHosts: ['127.0.0.1'] } })
    other.clock.advance(svc.clock.now().getTime() - other.clock.now().getTime())
    const senders = [dispatcher(svc, { timeoutMs: 5_000, perWorkspace: 2 }), dispatcher(other, { timeoutMs: 5_000, perWorkspace: 2 })]
    try {
      const { flow: stuck } = await surveyWithWebhook(silent.url)
      for (let n = 0; n < 8; n++) await collectResult(svc, stuck.id, [`Visitor ${n}`, `v${n}@example.com`, '30'])
      const quick = await otherSurveyWithWebhook(receiver.url)
      for (let n = 0; n < 6; n++) await collectResult(svc, quick.id, [`Quick ${n}`, `q${n}@example.com`, '30'])

      for (const sender of senders) sender.start(20)
      await until(() => receiver.calls.length === 6)
      expect(new Set(receiver.calls.map((call) => call.headers['webhook-id'])).size).toBe(6)
      // Two processes, two slots each: four of the stuck tenant's calls under way, no more.
      await until(() => silent.calls.length === 4)
      expect((await deliveries(stuck.id)).filter((delivery) => delivery.status === 'sending')).toHaveLength(4)
      await settled(quick.id, 6)
      expect((await deliveries(quick.id, svc.tokens.otherSecret)).map((delivery) => delivery.status)).toEqual(Array(6).fill('delivered'))
    } finally {
      await silent.close()
      await Promise.all(senders.map((sender) => sender.stop()))
      await other.integrations.close()
      await other.store.close()
    }
  })

  it('stay with the flow, out of its content: an update from a file keeps them, an export never carries them', async () => {
    const { flow } = await surveyWithWebhook()
    const read = await secret('GET', `/v1/flows/${flow.id}`)
    expect(read.text).not.toContain(receiver.url)
    expect((await secret('PUT', `/v1/flows/${flow.id}`, { flow: surveyFlow({ name: 'Survey, edited' }) })).status).toBe(200)
    expect((await secret('GET', `/v1/flows/${flow.id}/webhook`)).body.webhook.url).toBe(receiver.url)

    // A new address keeps the secret unless asked; a rotation makes a new one, shown once.
    const moved = setWebhookResponseSchema.parse((await secret('PUT', `/v1/flows/${flow.id}/webhook`, { url: `${receiver.url}?v=2` })).body)
    expect(moved.secret).toBeUndefined()
    expect(moved.webhook.url).toBe(`${receiver.url}?v=2`)
    const rotated = setWebhookResponseSchema.parse(
      (await secret('PUT', `/v1/flows/${flow.id}/webhook`, { url: receiver.url, rotateSecret: true })).body,
    )
    expect(rotated.secret).toMatch(/^whsec_/)

    // Removed, queued deliveries are cancelled rather than sent, even to an address set again.
    await collectResult(svc, flow.id, ['Ada', 'ada@example.com', '36'])
    expect((await secret('DELETE', `/v1/flows/${flow.id}/webhook`)).body).toEqual({ webhook: null })
    expect((await deliveries(flow.id))[0]).toMatchObject({ status: 'cancelled', nextAttemptAt: null, attempts: [] })
    expect((await secret('PUT', `/v1/flows/${flow.id}/webhook`, { url: receiver.url })).status).toBe(200)
    expect(await dispatcher().runDue()).toBe(0)
    expect(receiver.calls).toHaveLength(0)
    expect((await secret('DELETE', `/v1/flows/${flow.id}/webhook`)).status).toBe(200)
    expect((await secret('GET', `/v1/flows/${flow.id}/webhook`)).body).toEqual({ webhook: null })
  })

  it('refuse bad addresses, other workspaces and other token kinds with the error body', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    for (const url of [
      '',
      'not a url',
      'ftp://example.com/x',
      'javascript:alert(1)',
      'https://user:pw@example.com/hook',
      `https://example.com/${'x'.repeat(2_100)}`,
    ]) {
      expectError(await secret('PUT', `/v1/flows/${flow.id}/webhook`, { url }), 400, 'invalid_body')
    }
    for (const json of [{}, { url: 5 }, { url: receiver.url, rotateSecret: 'yes' }, { url: receiver.url, extra: 1 }]) {
      expectError(await secret('PUT', `/v1/flows/${flow.id}/webhook`, json), 400, 'invalid_body')
    }
    expectError(await secret('DELETE', `/v1/flows/${flow.id}/webhook`), 404, 'not_found')
    for (const limit of ['0', '201', 'x', '-1'])
      expectError(await secret('GET', `/v1/flows/${flow.id}/webhook-deliveries?limit=${limit}`), 400, 'invalid_query')
    for (const [method, path, json] of [
      ['GET', `/v1/flows/${flow.id}/webhook`],
      ['PUT', `/v1/flows/${flow.id}/webhook`, { url: receiver.url }],
      ['DELETE', `/v1/flows/${flow.id}/webhook`],
      ['GET', `/v1/flows/${flow.id}/webhook-deliveries`],
    ] as const) {
      const options = json === undefined ? {} : { json }
      expectError(await svc.call(method, path, { ...options, token: svc.tokens.otherSecret }), 404, 'flow_not_found')
      expectError(await svc.call(method, path, { ...options, token: svc.tokens.publishable }), 403, 'forbidden')
      expectError(await svc.call(method, path, options), 401, 'unauthorized')
    }
    expect((await secret('GET', `/v1/flows/${flow.id}/webhook`)).body).toEqual({ webhook: null })
  })
})
