import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Block } from '../../../../../src/protocol/index'
import type { StepContext } from '../../../../../src/service/engine/index'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { createOutboundHttp } from '../../../../../src/service/outbound/outbound-http'
import { createStore, type Store } from '../../../../../src/service/store/store'
import { dropSchema, freshSchema, useTestDatabase } from '../../../helpers/database'
import { type SmtpTestServer, startSmtpTestServer } from '../../../helpers/smtp-test-server'
import { buildFlow, Conversation, input, varId } from '../../support/flow-builder'
import { mailContext as mailContextOf } from '../../support/mail-context'

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

const mailContext = (smtpUrl: string | undefined, smtpFrom?: string) => mailContextOf(store, outbound, smtpUrl, smtpFrom)

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
    expect(outcome.logs).toEqual([
      expect.objectContaining({
        status: 'success',
        description: 'Email successfully sent',
        details: expect.objectContaining({ via: 'smtp', to: ['ada@example.com'] }),
      }),
    ])
  })

  it('sends at most five e-mails per step and never the same one twice in a row', async () => {
    const blocks = [
      planEmail,
      planEmail,
      ...Array.from({ length: 6 }, (_, i) => email(`m${i}`, { recipients: ['{{Email}}'], subject: `Mail ${i}`, body: 'x' })),
    ]
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
    expect(outcome.response.logs).toEqual([
      { status: 'error', description: 'E-mail not sent', details: { blockId: 'mail', type: 'Email' } },
    ])
    expect(outcome.logs[0]).toMatchObject({ description: 'Email not sent', details: { error: expect.stringMatching(/ECONNREFUSED/) } })
  })

  it('keeps the e-mail in the outbox when no SMTP server is configured', async () => {
    const outcome = await run([planEmail], mailContext(undefined))
    expect(outcome.response.logs).toEqual([
      { status: 'info', description: 'E-mail kept in the outbox: no SMTP server is configured', details: { blockId: 'mail' } },
    ])
    const [kept] = await store.outbox.list('acme', 1)
    expect(kept!.message).toMatchObject({ to: ['ada@example.com'], subject: 'Your plan, Ada' })
  })

  it('names a block whose credentials the workspace does not have', async () => {
    const outcome = await run([email('mail', { credentialsId: 'missing', recipients: ['{{Email}}'], body: 'x' })], mailContext(smtp.url))
    expect(outcome.logs[0]).toMatchObject({
      description: 'Email not sent',
      details: { error: 'No smtp credentials with id "missing" in this workspace' },
    })
    expect(smtp.received).toEqual([])
  })
})

describe('Email blocks a visitor cannot turn into a mailing tool', () => {
  const addresses = (n: number, domain = 'crowd.example') => Array.from({ length: n }, (_, i) => `person${i}@${domain}`)

  /** The visitor answers a text input (`Friends`, `Name`, `Email`), then the e-mail blocks run. */
  async function answered(blocks: Block[], answers: Record<string, string>, prefilled: Record<string, string> = {}, smtpFrom?: string) {
    const names = Object.keys(answers)
    const flow = buildFlow({
      variables: [...names, 'Boss', 'Team'],
      groups: [
        {
          id: 'g',
          blocks: [
            ...names.map((name) => input(`ask-${name}`, 'text input', { variableId: varId(name) })),
            ...blocks,
            input('more', 'text input'),
          ],
        },
      ],
    })
    const conversation = new Conversation(flow, undefined, { resultId: 'r1', ...mailContext(smtp.url, smtpFrom) })
    let outcome = await conversation.start({ prefilledVariables: prefilled })
    for (const name of names) outcome = await conversation.answer(answers[name]!)
    return outcome
  }

  it('refuses an e-mail that one answer expands to 50 recipients, and logs it; ten still go', async () => {
    const mail = email('mail', { recipients: ['{{Friends}}'], subject: 'Invitation', body: 'Join us' })
    const outcome = await answered([mail], { Friends: addresses(50).join(', ') })
    expect(outcome.response.input?.id).toBe('more')
    expect(smtp.received).toEqual([])
    expect(outcome.response.logs).toEqual([
      {
        status: 'error',
        description: 'E-mail not sent: it has 50 recipients, and one e-mail has at most 10',
        details: { blockId: 'mail', type: 'Email' },
      },
    ])
    await answered([mail], { Friends: addresses(10).join(', ') })
    expect(smtp.received.map((r) => r.envelope.to.length)).toEqual([10])
  })

  it('sends to at most 20 recipients in one step, whatever the number of e-mails', async () => {
    const blocks = ['a', 'b', 'c'].map((id) => email(id, { recipients: addresses(8, `${id}.example`), subject: `Mail ${id}`, body: 'x' }))
    const outcome = await answered(blocks, { Friends: 'go' })
    expect(smtp.received.map((r) => r.mail.subject)).toEqual(['Mail a', 'Mail b'])
    expect(outcome.response.logs).toEqual([
      {
        status: 'error',
        description: 'E-mail not sent: this step already sent to 16 recipients; one step sends to at most 20',
        details: { blockId: 'c', type: 'Email' },
      },
    ])
  })

  it("never mails a Cc or Bcc a page prefilled: the chat starts without the value; answers and the author's addresses still go", async () => {
    const mail = email('mail', {
      recipients: ['{{Email}}'],
      cc: ['{{Boss}}', 'fixed@acme.example'],
      bcc: ['{{Team}}', '{{Email}}'],
      subject: 'Copy',
      body: 'x',
    })
    const outcome = await answered(
      [mail],
      { Email: 'ada@example.com', Boss: 'boss@acme.example' },
      { Team: 'a@elsewhere.example, b@elsewhere.example' },
    )
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0]!.envelope.to.sort()).toEqual(['ada@example.com', 'boss@acme.example', 'fixed@acme.example'])
    expect(outcome.response.logs).toBeUndefined()
  })

  it("never lets a visitor's Reply-To name pose as the sender: the configured From name wins, and without one no visitor's name is used", async () => {
    const mail = (replyTo: string) => email('mail', { recipients: ['{{Email}}'], replyTo, subject: 'Reply', body: 'x' })
    const visitor = { Name: 'PayPal Security', Email: 'ada@example.com' }
    await answered([mail('{{Name}} <{{Email}}>')], visitor, {}, 'Acme support <support@acme.example>')
    await answered([mail('{{Name}} <{{Email}}>')], visitor, {}, 'support@acme.example')
    await answered([mail('Coach <coach@acme.example>')], visitor, {}, 'support@acme.example')
    expect(smtp.received.map((r) => r.mail.from?.value[0])).toEqual([
      { name: 'Acme support', address: 'support@acme.example' },
      { name: '', address: 'support@acme.example' },
      // A name the flow's author wrote still names the sender when the server has none.
      { name: 'Coach', address: 'support@acme.example' },
    ])
    expect(smtp.received[0]!.mail.replyTo?.value[0]).toEqual({ name: 'PayPal Security', address: 'ada@example.com' })
  })
})
