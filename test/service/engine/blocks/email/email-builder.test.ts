import { describe, expect, it } from 'vitest'
import { buildEmail } from '../../../../../src/service/engine/blocks/email/email-builder'
import { indexFlow } from '../../../../../src/service/engine/core/flow-index'
import { buildFlow, input, varId } from '../../support/flow-builder'

// The visitor is asked for `Team`; `Boss` is asked of nobody (the flow sets it).
const index = indexFlow(
  buildFlow({
    variables: ['Email', 'Name', 'Plan', 'Team', 'Files', 'Comment', 'Boss'],
    groups: [{ id: 'g', blocks: [input('team', 'text input', { variableId: varId('Team') })] }],
  }),
)
const variables = {
  [varId('Email')]: 'ada@example.com',
  [varId('Name')]: 'Ada <script>',
  [varId('Plan')]: 'Line one\nLine two',
  [varId('Team')]: ['bob@example.com', 'Carol <carol@example.com>'],
  [varId('Comment')]: '<b>bold</b> & co',
  [varId('Boss')]: 'boss@elsewhere.example',
}
const scope = { index, variables, answersSnapshot: () => ({ submittedAt: 'x', Name: 'Ada <script>', Comment: 'two\nlines' }) }
const build = (options: Record<string, unknown>, extra: Partial<typeof scope> = {}) => buildEmail(options, { ...scope, ...extra })

describe('buildEmail', () => {
  it('fills recipients, cc, bcc, reply-to and subject, reading address lists', () => {
    const outcome = build({
      credentialsId: 'mail',
      recipients: ['{{Email}}', 'not an address', ''],
      cc: ['{{Team}}'],
      bcc: ['audit@example.com; x@example.com'],
      replyTo: '{{Email}}',
      subject: 'Plan for {{Name}}\r\nBcc: evil@example.com',
      body: 'Hello {{Name}}',
    })
    expect(outcome).toEqual({
      kind: 'email',
      credentialsId: 'mail',
      email: {
        to: ['ada@example.com'],
        cc: ['bob@example.com', '"Carol" <carol@example.com>'],
        bcc: ['audit@example.com', 'x@example.com'],
        replyTo: 'ada@example.com',
        subject: 'Plan for Ada <script> Bcc: evil@example.com',
        text: 'Hello Ada <script>',
      },
    })
  })

  it("fills Cc and Bcc from any variable: pages cannot prefill one (prefill-policy.ts), so its value is the flow's or the visitor's", () => {
    const outcome = build({
      recipients: ['{{Email}}'],
      cc: ['{{Boss}}', 'Team lead <lead@example.com>'],
      bcc: ['{{Unknown}}'],
    })
    expect(outcome).toMatchObject({
      kind: 'email',
      email: { cc: ['boss@elsewhere.example', '"Team lead" <lead@example.com>'], bcc: [] },
    })
  })

  it('gives the sender only a name the author wrote in the Reply-To, never one filled in', () => {
    const senderOf = (replyTo: string) => {
      const outcome = build({ recipients: ['{{Email}}'], replyTo })
      return outcome.kind === 'email' ? outcome.email.senderName : outcome.kind
    }
    expect(senderOf('Coach <coach@example.com>')).toBe('Coach')
    expect(senderOf('{{Name}} <{{Email}}>')).toBeUndefined()
    expect(senderOf('"Support {{Name}}" <{{Email}}>')).toBeUndefined()
    expect(senderOf('{{Email}}')).toBeUndefined()
  })

  it('sends nothing without a recipient', () => {
    expect(build({ recipients: ['{{Missing}}'], body: 'x' })).toEqual({ kind: 'none' })
    expect(build({})).toEqual({ kind: 'none' })
  })

  it('sends an HTML body with what visitors typed escaped', () => {
    const outcome = build({ recipients: ['a@example.com'], isCustomBody: true, isBodyCode: true, body: '<p>{{Comment}}</p>' })
    expect(outcome).toMatchObject({ email: { html: '<p>&lt;b&gt;bold&lt;/b&gt; &amp; co</p>' } })
  })

  it('turns a single-variable body into lines', () => {
    expect(build({ recipients: ['a@example.com'], isCustomBody: true, body: '{{Plan}}' })).toMatchObject({
      email: { html: 'Line one<br />Line two' },
    })
    expect(build({ recipients: ['a@example.com'], body: '{{Team}}' })).toMatchObject({
      email: { html: 'bob@example.com<br />Carol &lt;carol@example.com&gt;' },
    })
  })

  it('lists every answer when the block has no body of its own', () => {
    const outcome = build({ recipients: ['a@example.com'], isCustomBody: false, body: 'ignored' })
    if (outcome.kind !== 'email') throw new Error(outcome.kind)
    expect(outcome.email.subject).toBe('New response')
    expect(outcome.email.text).toBe('A new response was submitted.\n\nName: Ada <script>\nComment: two\nlines\n')
    expect(outcome.email.html).toContain('<th align="left" valign="top">Name</th><td>Ada &lt;script&gt;</td>')
    expect(outcome.email.html).toContain('two<br />lines')
  })

  it('refuses attachments it cannot vouch for, and floods of recipients', () => {
    expect(build({ recipients: ['a@example.com'], attachmentsVariableId: varId('Files') }).kind).toBe('email')
    const withFiles = build(
      { recipients: ['a@example.com'], attachmentsVariableId: varId('Files') },
      { variables: { ...variables, [varId('Files')]: 'https://evil.example/file.pdf' } },
    )
    expect(withFiles).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('Invalid email attachment URL') })
    const many = Array.from({ length: 11 }, (_, i) => `r${i}@example.com`)
    expect(build({ recipients: many })).toEqual({ kind: 'invalid', reason: 'it has 11 recipients, and one e-mail has at most 10' })
    expect(build({ recipients: many.slice(0, 10) }).kind).toBe('email')
  })
})
