import type { AddressInfo } from 'node:net'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** A message the SMTP server accepted: the SMTP envelope and the parsed message. */
export interface ReceivedMail {
  envelope: { from: string; to: string[] }
  /** Who logged in to send it, if anyone. */
  user: string | undefined
  mail: ParsedMail
}

export interface SmtpTestServer {
  host: '127.0.0.1'
  port: number
  /** `smtp://user:password@127.0.0.1:PORT` */
  url: string
  received: ReceivedMail[]
  close(): Promise<void>
}

export const SMTP_USER = 'flows'
export const SMTP_PASSWORD = 'smtp-test-password'

/**
 * A real SMTP server (the `smtp-server` package) on loopback, in plain text (no STARTTLS
 * offered): accepts the login `SMTP_USER` / `SMTP_PASSWORD`, or no login at all, and keeps what
 * it receives.
 */
export async function startSmtpTestServer(): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = []
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username })
      else callback(new Error('Invalid username or password'))
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            },
            user: typeof session.user === 'string' ? session.user : undefined,
            mail,
          })
          callback()
        },
        (error: Error) => callback(error),
      )
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    host: '127.0.0.1',
    port,
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
