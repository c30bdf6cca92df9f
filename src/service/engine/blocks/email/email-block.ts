import type { Block } from '../../../../protocol/index'
import { type Continuation, follow } from '../../core/continuation'
import type { Step } from '../../core/step'
import { resultSnapshot } from '../http-request/answers-snapshot'
import { logIntegration } from '../integration-logs'
import { buildEmail } from './email-builder'

/** Builders refuse more e-mails than this in one step, and the same e-mail twice in a row. */
export const MAX_EMAILS_PER_STEP = 5
/** Most recipients of all the e-mails of one step (five e-mails of ten would otherwise be fifty). */
export const MAX_RECIPIENTS_PER_STEP = 20
/** Longest the visitor waits for one e-mail to be accepted by the mail server. */
const MAX_EMAIL_WAIT_MS = 30_000

/**
 * `Email` (integrations.md 3): the message is built from the variables and handed to the
 * service's mailer (the workspace's SMTP credentials, the service's SMTP server, or the outbox).
 * Sent or not, the walk goes on; a failure is a log entry.
 */
export async function runEmailBlock(block: Block, step: Step): Promise<Continuation> {
  const next = follow(block.outgoingEdgeId)
  const snapshot = await resultSnapshot(step)
  const built = buildEmail(block.options, { index: step.index, variables: step.variables, answersSnapshot: () => snapshot })
  if (built.kind === 'none') return next
  if (built.kind === 'invalid') {
    step.skip(block, 'error', `E-mail not sent: ${built.reason}`)
    return next
  }
  const mail = step.context.mail
  if (!mail) {
    step.skip(block, 'warning', 'E-mail not sent: this service sends no e-mail here')
    return next
  }
  if (step.emailsSent >= MAX_EMAILS_PER_STEP) {
    step.skip(block, 'error', `E-mail not sent: one step sends at most ${MAX_EMAILS_PER_STEP} e-mails`)
    return next
  }
  const recipients = built.email.to.length + built.email.cc.length + built.email.bcc.length
  if (step.emailRecipients + recipients > MAX_RECIPIENTS_PER_STEP) {
    const sent = step.emailRecipients
    step.skip(
      block,
      'error',
      `E-mail not sent: this step already sent to ${sent} recipients; one step sends to at most ${MAX_RECIPIENTS_PER_STEP}`,
    )
    return next
  }
  const key = JSON.stringify(built)
  if (key === step.lastEmailKey) {
    step.skip(block, 'error', 'E-mail not sent: it is the same e-mail as the one just sent')
    return next
  }
  if (step.outboundTimeLeftMs <= 0) {
    step.skip(block, 'error', 'E-mail not sent: this step already waited its longest on outgoing calls')
    return next
  }
  const { email } = built
  const summary = { to: email.to, cc: email.cc, bcc: email.bcc, subject: email.subject }
  const started = Date.now()
  try {
    const sending = mail({ ...(built.credentialsId ? { credentialsId: built.credentialsId } : {}), email })
    const outcome = await withDeadline(sending, Math.min(step.outboundTimeLeftMs, MAX_EMAIL_WAIT_MS))
    step.emailsSent++
    step.emailRecipients += recipients
    step.lastEmailKey = key
    logIntegration(step, block, { status: 'success', description: 'Email successfully sent', details: { ...outcome, ...summary } })
    if (outcome.via === 'outbox') step.log('info', 'E-mail kept in the outbox: no SMTP server is configured', { blockId: block.id })
  } catch (error) {
    logIntegration(step, block, {
      status: 'error',
      description: 'Email not sent',
      details: { error: error instanceof Error ? error.message : String(error), ...summary },
      publicDescription: 'E-mail not sent',
    })
  } finally {
    step.outboundTimeLeftMs -= Date.now() - started
  }
  return next
}

/** The promise, or an error once `ms` have passed (the visitor is not kept waiting longer). */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The mail server did not accept the e-mail within ${Math.round(ms / 1000)} s`)), ms)
  })
  promise.catch(() => undefined)
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}
