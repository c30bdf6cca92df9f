import addressparser from 'nodemailer/lib/addressparser'
import { asFields, readArray, readBoolean, readString } from '../../core/field-readers'
import type { FlowIndex } from '../../core/flow-index'
import type { OutgoingEmail } from '../../core/ports'
import { escapeHtml, formatValue, isSet, singleVariableName, substitute, type Variables, valueByName } from '../../core/variables'

/** An `Email` block's message (integrations.md 3.2), before a sender is chosen. Pure. */
export type EmailOutcome =
  | { kind: 'email'; credentialsId?: string; email: OutgoingEmail }
  /** Nothing to send and nothing to say (no recipient once filled in). */
  | { kind: 'none' }
  | { kind: 'invalid'; reason: string }

export interface EmailScope {
  index: FlowIndex
  variables: Variables
  answersSnapshot: () => Record<string, string>
}

/**
 * Most recipients of one e-mail, all fields together: a flow is not a mailing list. An e-mail
 * over it is not sent at all (rather than sent to some of them): one answer expanding to a crowd
 * of addresses is refused, and logged.
 */
export const MAX_RECIPIENTS = 10
const DEFAULT_SUBJECT = 'New response'

export function buildEmail(options: unknown, scope: EmailScope): EmailOutcome {
  const fields = asFields(options)
  const fill = (text: string) => substitute(text, scope.index, scope.variables)
  const to = addresses(readArray(fields, 'recipients'), fill)
  if (to.length === 0) return { kind: 'none' }
  const cc = addresses(readArray(fields, 'cc'), fill)
  const bcc = addresses(readArray(fields, 'bcc'), fill)
  const count = to.length + cc.length + bcc.length
  if (count > MAX_RECIPIENTS) {
    return { kind: 'invalid', reason: `it has ${count} recipients, and one e-mail has at most ${MAX_RECIPIENTS}` }
  }
  const attachmentsId = readString(fields, 'attachmentsVariableId')
  if (attachmentsId && isSet(scope.variables[attachmentsId])) {
    // Attachments may only be this flow's own uploads, and this service has none yet.
    return { kind: 'invalid', reason: 'Invalid email attachment URL: only files uploaded to this flow can be attached' }
  }
  const replyToTemplate = readString(fields, 'replyTo') ?? ''
  const replyTo = addresses([replyToTemplate], fill)[0]
  const senderName = authorsName(replyToTemplate)
  const subject =
    fill(readString(fields, 'subject') ?? '')
      .replace(/[\r\n]+/g, ' ')
      .trim()
      .slice(0, 500) || DEFAULT_SUBJECT
  const credentialsId = readString(fields, 'credentialsId')?.trim()
  const email: OutgoingEmail = {
    to,
    cc,
    bcc,
    subject,
    ...bodyOf(fields, scope),
    ...(replyTo ? { replyTo } : {}),
    ...(replyTo && senderName ? { senderName } : {}),
  }
  return { kind: 'email', ...(credentialsId ? { credentialsId } : {}), email }
}

/** The display name the author wrote in a Reply-To template, never one a variable fills in. */
function authorsName(template: string): string | undefined {
  const name = addressparser(template, { flatten: true })[0]?.name?.trim()
  return name && !name.includes('{{') ? name : undefined
}

/** Each entry filled in, then read as an address list (`a@x.example, "B" <b@y.example>`). */
function addresses(entries: unknown[], fill: (text: string) => string): string[] {
  const out: string[] = []
  for (const entry of entries) {
    if (typeof entry !== 'string') continue
    for (const parsed of addressparser(fill(entry), { flatten: true })) {
      const address = parsed.address?.trim()
      if (!address || !/^[^\s@]+@[^\s@]+$/.test(address)) continue
      out.push(parsed.name ? `"${parsed.name.replace(/["\\]/g, '')}" <${address}>` : address)
    }
  }
  return out
}

function bodyOf(fields: Record<string, unknown>, scope: EmailScope): Pick<OutgoingEmail, 'text' | 'html'> {
  const template = readString(fields, 'body') ?? ''
  const isCustom = readBoolean(fields, 'isCustomBody')
  if (isCustom === true || (isCustom === undefined && template.trim() !== '')) {
    const single = singleVariableName(template)
    if (single !== undefined) {
      // One variable: its text as HTML paragraphs (lines and list items on lines of their own).
      const value = valueByName(scope.index, scope.variables, single)
      const lines = Array.isArray(value) ? value : formatValue(value).split(/\r?\n/)
      return { html: lines.map((line) => escapeHtml(line)).join('<br />') }
    }
    if (readBoolean(fields, 'isBodyCode') === true) {
      // The author's HTML stays; what visitors typed is escaped, so an answer cannot inject markup.
      return { html: substitute(template, scope.index, scope.variables, escapeHtml) }
    }
    return { text: substitute(template, scope.index, scope.variables) }
  }
  return notification(scope.answersSnapshot())
}

/** The default e-mail: every answer and variable of the result, as a table and as text. */
function notification(snapshot: Record<string, string>): Pick<OutgoingEmail, 'text' | 'html'> {
  const entries = Object.entries(snapshot).filter(([key]) => key !== 'submittedAt')
  const rows = entries.map(
    ([key, value]) =>
      `<tr><th align="left" valign="top">${escapeHtml(key)}</th><td>${escapeHtml(value).replace(/\r?\n/g, '<br />')}</td></tr>`,
  )
  return {
    html: `<p>A new response was submitted.</p><table cellpadding="6">${rows.join('')}</table>`,
    text: `A new response was submitted.\n\n${entries.map(([key, value]) => `${key}: ${value}`).join('\n')}\n`,
  }
}
