import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { credentialsKeyFrom } from '../../../src/service/credentials/credentials-key'
import { CredentialsVault } from '../../../src/service/credentials/credentials-vault'
import { Mailer, type MailRequest } from '../../../src/service/mail/mailer'
import { AllowList } from '../../../src/service/outbound/address-policy'
import { createOutboundHttp, type OutboundHttp } from '../../../src/service/outbound/outbound-http'
import { createStore, type Store } from '../../../src/service/store/store'
import { dropSchema, freshSchema, useTestDatabase } from '../helpers/database'
import { SMTP_PASSWORD, SMTP_USER, type SmtpTestServer, startSmtpTestServer } from '../helpers/smtp-test-server'

const db = useTestDatabase()
let smtp: SmtpTestServer
let store: Store
let schema: string
let vault: CredentialsVault
const outbounds: OutboundHttp[] = []
const now = () => new Date('2026-05-01T10:00:00.000Z')

beforeAll(async () => {
  smtp = await startSmtpTestServer()
})
afterAll(() => smtp.close())

async function setUp() {
  schema = freshSchema()
  store = await createStore(db.database, { schema, closeDatabase: false })
  await store.workspaces.ensure('acme', 'Acme', now())
  vault = new CredentialsVault(store.credentials, credentialsKeyFrom('9f'.repeat(32)), now)
}
afterEach(async () => {
  await Promise.all(outbounds.splice(0).map((o) => o.close()))
  await store.close()
  await dropSchema(db.database, schema)
})

function mailer(options: { allow?: string; smtpUrl?: string; smtpFrom?: string } = {}): Mailer {
  const outbound = createOutboundHttp({ allow: AllowList.parse(options.allow).list })
  outbounds.push(outbound)
  return new Mailer({ vault, outbound, outbox: store.outbox, now, timeoutMs: 2_000, ...options })
}

const request = (overrides: Partial<MailRequest> = {}): MailRequest => ({
  workspaceId: 'acme',
  flowId: 'flow-1',
  resultId: 'result-1',
  email: {
    to: ['ada@example.com'],
    cc: ['cc1@example.com', 'cc2@example.com'],
    bcc: ['hidden@example.com'],
    replyTo: 'Ada Lovelace <ada@example.com>',
    subject: 'Your plan',
    text: 'Hello Ada,\nhere is your plan.',
  },
  ...overrides,
})

async function addSmtpCredentials(overrides: Record<string, unknown> = {}) {
  await vault.create('acme', {
    type: 'smtp',
    id: 'mail',
    data: {
      host: smtp.host,
      port: smtp.port,
      username: SMTP_USER,
      password: SMTP_PASSWORD,
      from: { name: 'Acme bot', email: 'bot@acme.example' },
      ...overrides,
    },
  })
}

describe('Mailer', () => {
  it('sends through the workspace credentials: recipients, cc and bcc in the envelope, bcc never in the headers', async () => {
    await setUp()
    await addSmtpCredentials()
    const before = smtp.received.length
    const outcome = await mailer({ allow: '127.0.0.1' }).send(request({ credentialsId: 'mail' }))
    expect(outcome).toMatchObject({ via: 'smtp', server: `127.0.0.1:${smtp.port}` })
    const [received] = smtp.received.slice(before)
    expect(received!.user).toBe(SMTP_USER)
    expect(received!.envelope.to.sort()).toEqual(['ada@example.com', 'cc1@example.com', 'cc2@example.com', 'hidden@example.com'])
    expect(received!.mail.subject).toBe('Your plan')
    expect(received!.mail.text?.trim()).toBe('Hello Ada,\nhere is your plan.')
    expect(received!.mail.headers.has('bcc')).toBe(false)
    expect(received!.mail.cc).toMatchObject({ value: [{ address: 'cc1@example.com' }, { address: 'cc2@example.com' }] })
    expect(received!.mail.replyTo?.value[0]?.address).toBe('ada@example.com')
    // The credentials' own name and address: a Reply-To's name never poses as the sender.
    expect(received!.mail.from?.value[0]).toEqual({ name: 'Acme bot', address: 'bot@acme.example' })
  })

  it('sends HTML bodies as HTML', async () => {
    await setUp()
    const before = smtp.received.length
    await mailer({ smtpUrl: smtp.url, smtpFrom: 'Flows <flows@service.example>' }).send(
      request({ email: { to: ['a@example.com'], cc: [], bcc: [], subject: 'HTML', html: '<p>Hi <b>there</b></p>' } }),
    )
    const [received] = smtp.received.slice(before)
    expect(received!.mail.html).toContain('<p>Hi <b>there</b></p>')
    expect(received!.mail.from?.value[0]).toEqual({ name: 'Flows', address: 'flows@service.example' })
  })

  it("sends through the service's SMTP_URL when the block names no credentials (or `default`)", async () => {
    await setUp()
    const before = smtp.received.length
    const service = mailer({ smtpUrl: smtp.url })
    await service.send(request())
    await service.send(request({ credentialsId: 'default' }))
    expect(smtp.received.slice(before).map((r) => r.user)).toEqual([SMTP_USER, SMTP_USER])
    expect(await store.outbox.list('acme', 10)).toEqual([])
  })

  it("refuses a workspace's SMTP server on a private address unless OUTBOUND_ALLOW_HOSTS lists it", async () => {
    await setUp()
    await addSmtpCredentials()
    const before = smtp.received.length
    await expect(mailer().send(request({ credentialsId: 'mail' }))).rejects.toThrow(/Refused to connect to 127\.0\.0\.1/)
    expect(smtp.received.length).toBe(before)
  })

  it('fails with a readable error when the server is down, refuses the login, or the credentials are missing', async () => {
    await setUp()
    const down = await startSmtpTestServer()
    await down.close()
    await addSmtpCredentials({ port: down.port })
    await expect(mailer({ allow: '127.0.0.1' }).send(request({ credentialsId: 'mail' }))).rejects.toThrow(/ECONNREFUSED/)
    await vault.update('acme', 'mail', {
      data: { host: smtp.host, port: smtp.port, username: SMTP_USER, password: 'wrong', from: { email: 'b@acme.example' } },
    })
    await expect(mailer({ allow: '127.0.0.1' }).send(request({ credentialsId: 'mail' }))).rejects.toThrow(/Invalid username or password/)
    await expect(mailer().send(request({ credentialsId: 'nope' }))).rejects.toThrow(/No smtp credentials with id "nope"/)
  })

  it('keeps e-mails in the outbox when no SMTP server is configured', async () => {
    await setUp()
    const outcome = await mailer().send(request())
    expect(outcome).toMatchObject({ via: 'outbox' })
    const [entry] = await store.outbox.list('acme', 10)
    expect(entry).toMatchObject({
      flowId: 'flow-1',
      resultId: 'result-1',
      message: {
        from: 'Flow Chat <no-reply@localhost>',
        to: ['ada@example.com'],
        cc: ['cc1@example.com', 'cc2@example.com'],
        bcc: ['hidden@example.com'],
        subject: 'Your plan',
        text: 'Hello Ada,\nhere is your plan.',
      },
    })
    expect(await store.outbox.list('other', 10)).toEqual([])
  })
})
