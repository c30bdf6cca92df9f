import { createTransport } from 'nodemailer'
import type { SmtpCredentialData } from '../../protocol/credentials'
import type { CredentialsVault } from '../credentials/credentials-vault'
import type { MailOutcome, OutgoingEmail } from '../engine/core/ports'
import { newId } from '../ids'
import type { OutboundHttp } from '../outbound/outbound-http'
import type { OutboxMessage, OutboxRepository } from '../store/outbox-repository'

/**
 * Sends the e-mails flows write: through the SMTP server of the workspace credentials a block
 * names, else through the service-wide `SMTP_URL`, else into the outbox table (no SMTP server
 * configured at all: `npm start` out of the box), where the demo index shows them.
 */

export interface MailRequest {
  workspaceId: string
  flowId: string | null
  resultId: string | null
  /** Workspace credentials to send with; absent or `default`: the service's own SMTP or the outbox. */
  credentialsId?: string
  /** The e-mail as an `Email` block wrote it, before a sender is chosen. */
  email: OutgoingEmail
}

export interface SmtpServer {
  host: string
  port: number
  secure: boolean
  username?: string
  password?: string
  from: string
  /** The operator's own server (SMTP_URL) is trusted; a workspace's goes through the outbound guard. */
  trusted: boolean
}

export interface MailerOptions {
  vault: CredentialsVault
  outbound: OutboundHttp
  outbox: OutboxRepository
  smtpUrl?: string
  smtpFrom?: string
  now: () => Date
  /** Longest wait for the server to accept a connection, greet, or answer a command. */
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 10_000

export class Mailer {
  private readonly serviceSmtp: SmtpServer | undefined

  constructor(private readonly options: MailerOptions) {
    this.serviceSmtp = options.smtpUrl === undefined ? undefined : smtpServerFromUrl(options.smtpUrl, options.smtpFrom)
  }

  /** Throws (credentials missing or unreadable, server refused or down) with a message for the logs. */
  async send(request: MailRequest): Promise<MailOutcome> {
    const named = request.credentialsId !== undefined && request.credentialsId !== 'default'
    const server = named
      ? smtpServerFromCredentials(await this.options.vault.use(request.workspaceId, request.credentialsId!, 'smtp'))
      : this.serviceSmtp
    const { senderName, ...email } = request.email
    const from = sender(server?.from ?? 'Flow Chat <no-reply@localhost>', senderName)
    if (!server) {
      const id = newId()
      await this.options.outbox.add({
        id,
        workspaceId: request.workspaceId,
        flowId: request.flowId,
        resultId: request.resultId,
        message: { ...email, from } satisfies OutboxMessage,
        createdAt: this.options.now().toISOString(),
      })
      return { via: 'outbox', id, from }
    }
    // Within the workspace's lookup slots: a tenant's SMTP host that never answers stalls only its own.
    const address = server.trusted ? server.host : await this.options.outbound.forWorkspace(request.workspaceId).resolveHost(server.host)
    const timeout = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const transport = createTransport({
      host: address,
      port: server.port,
      secure: server.secure,
      // The certificate is checked against the name, while the connection goes to the checked address.
      tls: { servername: server.host },
      ...(server.username ? { auth: { user: server.username, pass: server.password ?? '' } } : {}),
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout * 2,
      dnsTimeout: timeout,
      // A flow's text never makes the mailer read a file or fetch a URL.
      disableFileAccess: true,
      disableUrlAccess: true,
    })
    try {
      const info = await transport.sendMail({
        from,
        to: email.to,
        cc: email.cc,
        bcc: email.bcc,
        ...(email.replyTo ? { replyTo: email.replyTo } : {}),
        subject: email.subject,
        ...(email.text !== undefined ? { text: email.text } : {}),
        ...(email.html !== undefined ? { html: email.html } : {}),
      })
      return { via: 'smtp', server: `${server.host}:${server.port}`, from, messageId: String(info.messageId ?? '') }
    } finally {
      transport.close()
    }
  }
}

export function smtpServerFromCredentials(data: SmtpCredentialData): SmtpServer {
  return {
    host: data.host,
    port: data.port,
    secure: data.isTlsEnabled === true,
    ...(data.username ? { username: data.username } : {}),
    ...(data.password ? { password: data.password } : {}),
    from: data.from.name ? `${quoteName(data.from.name)} <${data.from.email}>` : data.from.email,
    trusted: false,
  }
}

/** `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465` (TLS from the start). */
export function smtpServerFromUrl(url: string, from: string | undefined): SmtpServer {
  const parsed = new URL(url)
  const secure = parsed.protocol === 'smtps:'
  const username = decodeURIComponent(parsed.username)
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port === '' ? (secure ? 465 : 587) : Number(parsed.port),
    secure,
    ...(username ? { username, password: decodeURIComponent(parsed.password) } : {}),
    from: from ?? (username.includes('@') ? username : `Flow Chat <no-reply@${parsed.hostname}>`),
    trusted: true,
  }
}

/**
 * The sender's display name is the one configured with the server (credentials' `from.name`,
 * `SMTP_FROM`): the tenant's, on the tenant's address. Builders take the Reply-To's name instead,
 * which let a visitor's answer (`PayPal Security`) pose as the sender; here only a name the
 * flow's author wrote names the sender, and only when the server has none.
 */
function sender(from: string, authorsName: string | undefined): string {
  const configured = /^\s*"?([^"<]*?)"?\s*</.exec(from)?.[1]?.trim()
  if (configured || !authorsName) return from
  return `${quoteName(authorsName)} <${from.trim()}>`
}

function quoteName(name: string): string {
  return `"${name.replace(/["\\\r\n]/g, '')}"`
}
