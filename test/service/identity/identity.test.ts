import { createHmac } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { IDENTITY_SECRET_PREFIX, identitySecretSchema } from '../../../src/protocol/identity'
import { resultsPageSchema } from '../../../src/protocol/results'
import { FORGED_USER_HASHES } from '../fixtures/forged-user-hashes'
import { useTestDatabase } from '../helpers/database'
import { publishedSurvey, resultsPath } from '../helpers/results'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

/** What the site's server does: HMAC-SHA256 of the id with the secret, in hex. */
const sign = (secret: string, id: string) => createHmac('sha256', secret).update(id, 'utf8').digest('hex')

async function newSecret(token = svc.tokens.secret, body?: unknown): Promise<string> {
  const res = await svc.call('POST', '/v1/identity-secrets', { token, ...(body === undefined ? {} : { json: body }) })
  expect(res.status).toBe(200)
  return res.body.secret as string
}

const start = async (flowId: string, body: Record<string, unknown> = {}) => {
  const res = await svc.call('POST', `/v1/flows/${flowId}/startChat`, { json: body })
  expect(res.status).toBe(200)
  return res.body
}
const answer = async (sessionId: string, message: string) => {
  const res = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message } })
  expect(res.status).toBe(200)
  return res.body
}
const resultsOf = async (flowId: string, query: Record<string, string> = {}) => {
  const res = await svc.call('GET', resultsPath(flowId, query), { token: svc.tokens.secret })
  expect(res.status).toBe(200)
  return resultsPageSchema.parse(res.body).results
}

describe('identity secrets', () => {
  it('are created and rotated with a secret token, shown once, and listed by their hint only', async () => {
    const first = await svc.call('POST', '/v1/identity-secrets', { token: svc.tokens.secret })
    expect(first.status).toBe(200)
    expect(first.body.secret.startsWith(IDENTITY_SECRET_PREFIX)).toBe(true)
    expect(first.body.identitySecret.hint).toBe(`…${first.body.secret.slice(-4)}`)
    const listed = await svc.call('GET', '/v1/identity-secrets', { token: svc.tokens.secret })
    expect(listed.body.identitySecrets.map((s: unknown) => identitySecretSchema.parse(s).id)).toEqual([first.body.identitySecret.id])
    expect(listed.text).not.toContain(first.body.secret)

    const second = await svc.call('POST', '/v1/identity-secrets', { token: svc.tokens.secret })
    expect(second.body.secret).not.toBe(first.body.secret)
    const after = (await svc.call('GET', '/v1/identity-secrets', { token: svc.tokens.secret })).body.identitySecrets
    expect(after.map((s: { id: string }) => s.id)).toEqual([second.body.identitySecret.id, first.body.identitySecret.id])
    expect(after[0].retiresAt).toBeNull()
    expect(Date.parse(after[1].retiresAt) - svc.clock.now().getTime()).toBe(24 * 3_600_000)
  })

  it('refuse publishable tokens, no token, and never show one workspace the secrets of another', async () => {
    await newSecret()
    for (const [token, status] of [
      [svc.tokens.publishable, 403],
      [undefined, 401],
    ] as const) {
      for (const method of ['GET', 'POST']) {
        const res = await svc.call(method, '/v1/identity-secrets', token ? { token } : {})
        expect(res.status, `${method} with ${token ? 'a publishable token' : 'no token'}`).toBe(status)
      }
    }
    expect((await svc.call('GET', '/v1/identity-secrets', { token: svc.tokens.otherSecret })).body.identitySecrets).toEqual([])
  })

  it('a secret of another workspace verifies nobody here, and the rotated-out one stops at its time', async () => {
    const flow = await publishedSurvey(svc)
    const other = await newSecret(svc.tokens.otherSecret)
    expect((await start(flow.id, { user: { id: 'ada', hash: sign(other, 'ada') } })).identity).toEqual({
      status: 'refused',
      reason: 'no_secret',
    })

    const old = await newSecret()
    const current = await newSecret(svc.tokens.secret, { previousValidHours: 2 })
    expect((await start(flow.id, { user: { id: 'ada', hash: sign(old, 'ada') } })).identity.status).toBe('verified')
    expect((await start(flow.id, { user: { id: 'ada', hash: sign(other, 'ada') } })).identity.reason).toBe('hash_mismatch')
    svc.clock.advance(2 * 3_600_000 + 1)
    expect((await start(flow.id, { user: { id: 'ada', hash: sign(old, 'ada') } })).identity.reason).toBe('hash_mismatch')
    expect((await start(flow.id, { user: { id: 'ada', hash: sign(current, 'ada') } })).identity.status).toBe('verified')
    // Rotating again with no grace stops the one it replaces at once.
    await newSecret(svc.tokens.secret, { previousValidHours: 0 })
    expect((await start(flow.id, { user: { id: 'ada', hash: sign(current, 'ada') } })).identity.reason).toBe('hash_mismatch')
  })

  it('refuse a grace period past a week, or not a whole number of hours', async () => {
    for (const previousValidHours of [169, -1, 1.5, '24']) {
      const res = await svc.call('POST', '/v1/identity-secrets', { token: svc.tokens.secret, json: { previousValidHours } })
      expect(res.status, String(previousValidHours)).toBe(400)
      expect(res.body.error.code).toBe('invalid_body')
    }
  })
})

describe('a verified user', () => {
  it('goes on with their conversation from another device at the step it stands at', async () => {
    const flow = await publishedSurvey(svc)
    const secret = await newSecret()
    const user = { id: 'ada@example.com', hash: sign(secret, 'ada@example.com') }
    const laptop = await start(flow.id, { user })
    expect(laptop.identity).toEqual({ status: 'verified' })
    const asked = await answer(laptop.sessionId, 'Ada')
    expect(asked.input.id).toBe('b-email')

    const phone = await start(flow.id, { user })
    expect(phone).toMatchObject({ sessionId: laptop.sessionId, resultId: laptop.resultId, resumed: true, identity: { status: 'verified' } })
    expect(phone.input).toEqual(asked.input)
    await answer(phone.sessionId, 'ada@example.com')
    // The laptop, opened again, stands where the phone left it.
    expect((await start(flow.id, { user })).input.id).toBe('b-age')
    // Nobody else resumes it: another user and an anonymous visitor start their own.
    const bob = await start(flow.id, { user: { id: 'bob', hash: sign(secret, 'bob') } })
    expect(bob.resultId).not.toBe(laptop.resultId)
    const anonymous = await start(flow.id, { resultId: laptop.resultId })
    expect(anonymous.resultId).not.toBe(laptop.resultId)
  })

  it('starts over when they ask to: a new conversation and result, the running one kept where it stood', async () => {
    const flow = await publishedSurvey(svc)
    const secret = await newSecret()
    const user = { id: 'grace', hash: sign(secret, 'grace') }
    const first = await start(flow.id, { user })
    await answer(first.sessionId, 'Grace')
    svc.clock.advance(1_000)
    const fresh = await start(flow.id, { user, startOver: true })
    expect(fresh.resumed).toBeUndefined()
    expect(fresh.sessionId).not.toBe(first.sessionId)
    expect(fresh.resultId).not.toBe(first.resultId)
    expect(fresh.identity).toEqual({ status: 'verified' })
    // The one left behind is kept as it stood; the user's newest conversation is the new one.
    const kept = await svc.call('GET', `/v1/flows/${flow.id}/results/${first.resultId}`, { token: svc.tokens.secret })
    expect(kept.status).toBe(200)
    expect((await start(flow.id, { user })).sessionId).toBe(fresh.sessionId)
  })

  it('starts a new conversation once theirs ended, or when it expired (with the reason)', async () => {
    const flow = await publishedSurvey(svc, {
      settings: { general: { rememberUser: { isEnabled: true, storage: 'local', expiryHours: 2 } } },
    })
    const secret = await newSecret()
    const user = { id: 'ada', hash: sign(secret, 'ada') }
    const first = await start(flow.id, { user })
    for (const text of ['Ada', 'ada@example.com', '36']) await answer(first.sessionId, text)
    svc.clock.advance(1_000)
    const second = await start(flow.id, { user })
    expect(second.resultId).not.toBe(first.resultId)
    expect(second.resumed).toBeUndefined()

    svc.clock.advance(2 * 3_600_000 + 1)
    const third = await start(flow.id, { user })
    expect(third.resultId).not.toBe(second.resultId)
    expect(third.restartedBecause).toBe('expired')
    // The results keep all three, each the user's.
    expect((await resultsOf(flow.id, { userId: 'ada' })).map((r) => r.id).sort()).toEqual(
      [first.resultId, second.resultId, third.resultId].sort(),
    )
  })

  it('is the user id of their results: the list filters by it and both exports carry it', async () => {
    const flow = await publishedSurvey(svc)
    const secret = await newSecret()
    const ada = await start(flow.id, { user: { id: '=HYPERLINK("x")', hash: sign(secret, '=HYPERLINK("x")') } })
    const anonymous = await start(flow.id)
    expect((await resultsOf(flow.id, { userId: '=HYPERLINK("x")' })).map((r) => [r.id, r.userId])).toEqual([
      [ada.resultId, '=HYPERLINK("x")'],
    ])
    expect((await resultsOf(flow.id, { userId: 'nobody' })).length).toBe(0)
    const all = await resultsOf(flow.id)
    expect(all.find((r) => r.id === anonymous.resultId)?.userId).toBeNull()

    const csv = await svc.call('GET', resultsPath(flow.id, { userId: '=HYPERLINK("x")' }, '/export'), { token: svc.tokens.secret })
    const lines = csv.text.split('\r\n')
    expect(lines[0]).toContain('Completed,Version,User id,')
    // A user id is text in a spreadsheet, never a formula.
    expect(lines[1]).toContain(`,"'=HYPERLINK(""x"")",`)
    expect(lines.length).toBe(3)
    const jsonl = await svc.call('GET', resultsPath(flow.id, { format: 'jsonl' }, '/export'), { token: svc.tokens.secret })
    const rows = jsonl.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(rows.map((row) => row.userId).sort()).toEqual(['=HYPERLINK("x")', null].sort())
  })
})

describe('a forged or missing identity', () => {
  it('is refused with its reason, and the conversation goes on anonymously', async () => {
    const flow = await publishedSurvey(svc)
    const secret = await newSecret()
    const otherSecret = await newSecret(svc.tokens.otherSecret)
    const victim = 'ada@example.com'
    const own = await start(flow.id, { user: { id: victim, hash: sign(secret, victim) } })
    await answer(own.sessionId, 'Ada')
    for (const forged of FORGED_USER_HASHES) {
      const sent = await svc.call('POST', `/v1/flows/${flow.id}/startChat`, {
        json: { user: forged.user({ victim, secret, otherSecret }) },
      })
      expect(sent.status, `${forged.attack}: ${sent.text.slice(0, 300)}`).toBe(200)
      const res = sent.body
      expect(res.identity, forged.attack).toEqual({ status: 'refused', reason: forged.reason })
      // The site owner hears of it as a log of the step (the widget: flowchat:log), with a stable code.
      expect(res.logs, forged.attack).toContainEqual(
        expect.objectContaining({ status: 'warning', details: { code: 'identity-refused', reason: forged.reason } }),
      )
      expect(res.sessionId, forged.attack).not.toBe(own.sessionId)
      expect(res.resumed, forged.attack).toBeUndefined()
      expect(res.input.id, forged.attack).toBe('b-name')
    }
    // Only the victim's own result is theirs.
    expect((await resultsOf(flow.id, { userId: victim })).map((r) => r.id)).toEqual([own.resultId])
    expect((await resultsOf(flow.id, { limit: '100' })).filter((r) => r.userId !== null).length).toBe(1)
  })

  it('without a user, no verdict is given; a malformed user object is a 400', async () => {
    const flow = await publishedSurvey(svc)
    expect((await start(flow.id)).identity).toBeUndefined()
    for (const user of ['ada', { id: 'ada' }, { id: 1, hash: 'x' }, { id: 'a'.repeat(2000), hash: '' }]) {
      const res = await svc.call('POST', `/v1/flows/${flow.id}/startChat`, { json: { user } })
      expect(res.status, JSON.stringify(user).slice(0, 40)).toBe(400)
    }
  })
})
