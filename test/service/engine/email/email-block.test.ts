import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Block } from '../../../../src/protocol/index'
import { credentialsKeyFrom } from '../../../../src/service/credentials/credentials-key'
import { CredentialsVault } from '../../../../src/service/credentials/credentials-vault'
import type { StepContext } from '../../../../src/service/engine/index'
import { closeSandbox } from '../../../../src/service/engine/sandbox'
import { Mailer } from '../../../../src/service/mail/mailer'
import { createOutboundHttp } from '../../../../src/service/outbound/outbound-http'
import { createStore, type Store } from '../../../../src/service/store/store'
import { dropSchema, freshSchema, useTestDatabase } from '../../helpers/database'
import { startSmtpTestServer, type SmtpTestServer } from '../../helpers/smtp-test-server'
import { buildFlow, Conversation, input, varId } from '../support/flow-builder'

const db = useTestDatabase()
let smtp: SmtpTestServer
let store: Store
let schema: string
const outbound = createOutboundHttp()

beforeAll(async () => {
  smtp = await startSmtpTestServer()
  schema = freshSchema()
  store = await createStore(db.database, { schema, closeDatabase: false })
  await store.workspaces.ensure('acme', 'Acme', new Date())
})
afterAll(async () => {
  await Promise.all([smtp.close(), outbound.close(), closeSandbox()])
  await store.close()
  await dropSchema(db.database, schema)
})
afterEach(() => {
  smtp.received.length = 0
})

function mailContext(smtpUrl: string | undefined): Pick<StepContext, 'mail'> {
  const vault = new CredentialsVault(store.credentials, credentialsKeyFrom('ab'.repeat(32)), () => new Date())
  const mailer = new Mailer({ vault, outbound, outbox: store.outbox, now: () => new Date(), timeoutMs: 2_000, ...(smtpUrl ? { smtpUrl } : {}) })
  return { mail: (request) => mailer.send({ workspaceId: 'acme', flowId: 'f', resultId: 'r1', ...request }) }
}

const email = (id: string, options: Record<string, unknown>): Block => ({ id, type: 'Email', options })

/** Ask for an e-mail address, then run `blocks`, then ask something else. */
function emailFlow(...blocks: Block[]) {
  return buildFlow({
    variables: ['Email', 'Name', 'Plan'],
    groups: [
      {
        id: 'g',
        blocks: [input('ask', 'email input', { variableId: varId('Email') }), ...blocks, input('more', 'text input')],
      },
    ],
  })
}

async function run(blocks: Block[], context: Partial<StepContext>) {
  const conversation = new Conversation(emailFlow(...blocks), undefined, { resultId: 'r1', ...context })
  await conversation.start({ prefilledVariables: { Name: 'Ada', Plan: 'Drink 500 ml per hour.\nAdd salt.' } })
  return conversation.answer('ada@example.com')
}

const planEmail = email('mail', {
  recipients: ['{{Email}}'],
  cc: ['coach@example.com'],
  bcc: ['audit@example.com'],
  replyTo: 'Coach <coach@example.com>',
  subject: 'Your plan, {{Name}}',
  isCustomBody: true,
  body: 'Hey {{Name}},\n\n{{Plan}}\n\nSee you soon.',
})

describe('Email blocks against a real SMTP server', () => {
  it('sends the filled-in e-mail to every recipient, and the walk goes on', async () => {
    const outcome = await run([planEmail], mailContext(smtp.url))
    expect(outcome.response.input?.id).toBe('more')
    expect(smtp.received).toHaveLength(1)
    const [received] = smtp.received
    expect(received!.envelope.to.sort()).toEqual(['ada@example.com', 'audit@example.com', 'coach@example.com'])
    expect(received!.mail.subject).toBe('Your plan, Ada')
    expect(received!.mail.text?.trim()).toBe('Hey Ada,\n\nDrink 500 ml per hour.\nAdd salt.\n\nSee you soon.')
    expect(received!.mail.headers.has('bcc')).toBe(false)
    expect(outcome.response.logs).toBeUndefined()
    expect(outcome.logs).toEqual([expect.objectContaining({ status: 'success', description: 'Email successfully sent', details: expect.objectContaining({ via: 'smtp', to: ['ada@example.com'] }) })])
  })

  it('sends at most five e-mails per step and never the same one twice in a row', async () => {
    const blocks = [planEmail, planEmail, ...Array.from({ length: 6 }, (_, i) => email(`m${i}`, { recipients: ['{{Email}}'], subject: `Mail ${i}`, body: 'x' }))]
    const outcome = await run(blocks, mailContext(smtp.url))
    expect(smtp.received.map((r) => r.mail.subject)).toEqual(['Your plan, Ada', 'Mail 0', 'Mail 1', 'Mail 2', 'Mail 3'])
    expect(outcome.response.logs?.map((log) => log.description)).toEqual([
      'E-mail not sent: it is the same e-mail as the one just sent',
      'E-mail not sent: one step sends at most 5 e-mails',
      'E-mail not sent: one step sends at most 5 e-mails',
    ])
  })

  it('logs an SMTP server that is down, and goes on', async () => {
    const down = await startSmtpTestServer()
    await down.close()
    const outcome = await run([planEmail], mailContext(down.url))
    expect(outcome.response.input?.id).toBe('more')
    expect(outcome.response.logs).toEqual([{ status: 'error', description: 'E-mail not sent', details: { blockId: 'mail', type: 'Email' } }])
    expect(outcome.logs[0]).toMatchObject({ description: 'Email not sent', details: { error: expect.stringMatching(/ECONNREFUSED/) } })
  })

  it('keeps the e-mail in the outbox when no SMTP server is configured', async () => {
    const outcome = await run([planEmail], mailContext(undefined))
    expect(outcome.response.logs).toEqual([{ status: 'info', description: 'E-mail kept in the outbox: no SMTP server is configured', details: { blockId: 'mail' } }])
    const [kept] = await store.outbox.list('acme', 1)
    expect(kept!.message).toMatchObject({ to: ['ada@example.com'], subject: 'Your plan, Ada' })
  })

  it('names a block whose credentials the workspace does not have', async () => {
    const outcome = await run([email('mail', { credentialsId: 'missing', recipients: ['{{Email}}'], body: 'x' })], mailContext(smtp.url))
    expect(outcome.logs[0]).toMatchObject({ description: 'Email not sent', details: { error: 'No smtp credentials with id "missing" in this workspace' } })
    expect(smtp.received).toEqual([])
  })
})
