import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type CreateCredentialRequest, credentialSchema } from '../../../src/protocol/credentials'
import { errorBodySchema } from '../../../src/protocol/index'
import { CredentialUnreadableError, credentialsKeyFrom } from '../../../src/service/credentials/credentials-key'
import { CredentialNotFoundError, CredentialsVault } from '../../../src/service/credentials/credentials-vault'
import { useTestDatabase } from '../helpers/database'
import { type CallResult, createTestService, type TestService, WORKSPACE } from '../helpers/service'
import { dumpSchema } from '../helpers/table-dump'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const PASSWORD = 'correct-horse-battery-staple'
const API_KEY = 'sk-test-0123456789abcdefghijklmnopqrstuvwxyz-LAST'

const smtp: CreateCredentialRequest = {
  type: 'smtp',
  id: 'send-email-credentials',
  name: 'Our mail server',
  data: {
    host: 'mail.example.com',
    port: 587,
    username: 'bot@example.com',
    password: PASSWORD,
    from: { name: 'Bot', email: 'bot@example.com' },
  },
}
const openai: CreateCredentialRequest = { type: 'openai', id: 'openai', data: { apiKey: API_KEY, baseUrl: 'https://llm.example.com/v1' } }

/** Every answer of the test, to check afterwards that none carried a secret. */
const answers: CallResult[] = []
async function call(method: string, path: string, options: Parameters<TestService['call']>[2] = {}) {
  const res = await svc.call(method, path, { token: svc.tokens.secret, ...options })
  answers.push(res)
  return res
}

function expectError(res: CallResult, status: number, code: string) {
  expect(res.status).toBe(status)
  expect(errorBodySchema.parse(res.body).error.code).toBe(code)
}

describe('credentials API', () => {
  it('stores credentials and shows them only masked', async () => {
    const created = await call('POST', '/v1/credentials', { json: smtp })
    expect(created.status).toBe(200)
    const credential = credentialSchema.parse(created.body.credential)
    expect(credential).toMatchObject({ id: 'send-email-credentials', type: 'smtp', name: 'Our mail server' })
    expect(credential.data).toEqual({ ...smtp.data, password: '••••aple' })

    svc.clock.advance(1_000)
    const key = await call('POST', '/v1/credentials', { json: openai })
    expect(key.body.credential.data).toEqual({ apiKey: '••••LAST', baseUrl: 'https://llm.example.com/v1' })
    svc.clock.advance(1_000)
    const short = await call('POST', '/v1/credentials', { json: { type: 'mistral', data: { apiKey: 'abc123' } } })
    expect(short.body.credential.data.apiKey).toBe('••••')
    expect(short.body.credential.id).toMatch(/^[A-Za-z0-9_-]{24}$/)

    const list = await call('GET', '/v1/credentials')
    expect(list.body.credentials.map((c: { id: string }) => c.id)).toEqual(['send-email-credentials', 'openai', short.body.credential.id])
    expect((await call('GET', '/v1/credentials/openai')).body.credential.data.apiKey).toBe('••••LAST')
  })

  it('updates name and data (checked against the type) and deletes', async () => {
    await call('POST', '/v1/credentials', { json: smtp })
    const renamed = await call('PATCH', '/v1/credentials/send-email-credentials', { json: { name: 'Renamed' } })
    expect(renamed.body.credential).toMatchObject({ name: 'Renamed', data: { host: 'mail.example.com' } })
    const moved = await call('PATCH', '/v1/credentials/send-email-credentials', {
      json: { data: { ...smtp.data, host: 'smtp.example.org', port: 465, isTlsEnabled: true } },
    })
    expect(moved.body.credential.data).toMatchObject({ host: 'smtp.example.org', port: 465, isTlsEnabled: true })
    const wrong = await call('PATCH', '/v1/credentials/send-email-credentials', { json: { data: { apiKey: 'x' } } })
    expectError(wrong, 400, 'invalid_body')
    expect(wrong.body.error.details.map((d: { path: string }) => d.path)).toContain('data.host')
    expect((await call('DELETE', '/v1/credentials/send-email-credentials')).body).toEqual({ id: 'send-email-credentials', deleted: true })
    expectError(await call('GET', '/v1/credentials/send-email-credentials'), 404, 'not_found')
    expectError(await call('DELETE', '/v1/credentials/send-email-credentials'), 404, 'not_found')
  })

  it('refuses bad bodies and taken ids', async () => {
    for (const json of [
      { type: 'smtp', data: { host: 'h', port: 25, from: { email: 'not an address' } } },
      { type: 'smtp', data: { host: 'h', port: 70_000, from: { email: 'a@b.co' } } },
      { type: 'stripe', data: {} },
      { type: 'openai', data: { apiKey: '' } },
      { type: 'openai', data: { apiKey: 'k', baseUrl: 'file:///etc/passwd' } },
      { type: 'openai', id: 'has spaces', data: { apiKey: 'k' } },
      { type: 'openai', data: { apiKey: 'k', extra: true } },
    ]) {
      expectError(await call('POST', '/v1/credentials', { json }), 400, 'invalid_body')
    }
    await call('POST', '/v1/credentials', { json: openai })
    expectError(await call('POST', '/v1/credentials', { json: openai }), 409, 'conflict')
  })

  it('keeps each workspace to its own credentials, for secret tokens only', async () => {
    await call('POST', '/v1/credentials', { json: smtp })
    const other = { token: svc.tokens.otherSecret }
    expect((await call('GET', '/v1/credentials', other)).body.credentials).toEqual([])
    expectError(await call('GET', '/v1/credentials/send-email-credentials', other), 404, 'not_found')
    expectError(await call('DELETE', '/v1/credentials/send-email-credentials', other), 404, 'not_found')
    // The same id in another workspace is another credential.
    expect((await call('POST', '/v1/credentials', { ...other, json: smtp })).status).toBe(200)
    expectError(await call('GET', '/v1/credentials', { token: svc.tokens.publishable }), 403, 'forbidden')
    const anonymous = await svc.call('GET', '/v1/credentials')
    expectError(anonymous, 401, 'unauthorized')
  })

  it('never lets the plaintext reach the database or any answer', async () => {
    await call('POST', '/v1/credentials', { json: smtp })
    await call('POST', '/v1/credentials', { json: openai })
    await call('PATCH', '/v1/credentials/openai', { json: { data: { apiKey: API_KEY } } })
    await call('GET', '/v1/credentials')
    await call('GET', '/v1/credentials/send-email-credentials')
    const dump = await dumpSchema(svc.store.database, svc.schema)
    expect(dump).toContain('send-email-credentials')
    for (const secret of [PASSWORD, API_KEY, API_KEY.slice(5, 30)]) {
      expect(dump).not.toContain(secret)
      for (const answer of answers) expect(answer.text).not.toContain(secret)
    }
    // Only a block's own use opens it.
    expect(await svc.integrations.vault.use(WORKSPACE, 'send-email-credentials', 'smtp')).toMatchObject({ password: PASSWORD })
  })
})

describe('CredentialsVault.use', () => {
  it('names a missing credential or one of another type', async () => {
    await call('POST', '/v1/credentials', { json: openai })
    const vault = svc.integrations.vault
    await expect(vault.use(WORKSPACE, 'nope', 'smtp')).rejects.toThrow(CredentialNotFoundError)
    await expect(vault.use(WORKSPACE, 'openai', 'smtp')).rejects.toThrow(CredentialNotFoundError)
    await expect(vault.use('other', 'openai', 'openai')).rejects.toThrow(CredentialNotFoundError)
  })

  it('cannot open what another key sealed: an error to log, a masked entry marked unreadable', async () => {
    await call('POST', '/v1/credentials', { json: smtp })
    const otherKey = new CredentialsVault(svc.store.credentials, credentialsKeyFrom('12'.repeat(32)), svc.clock.now)
    await expect(otherKey.use(WORKSPACE, 'send-email-credentials', 'smtp')).rejects.toThrow(CredentialUnreadableError)
    expect(await otherKey.countUnreadable()).toBe(1)
    expect(await otherKey.list(WORKSPACE)).toEqual([expect.objectContaining({ id: 'send-email-credentials', data: {}, unreadable: true })])
  })
})
