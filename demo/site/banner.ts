import type { SeededFlow } from './seed'

/** What `npm start` prints once everything runs: where each part is, and the tokens to use. */
export function startBanner(input: {
  url: string
  workers: number
  smtpConfigured: boolean
  workspace: string
  tokens: { secret: string; publishable: string }
  data: string
  /** The command line's command, as a user runs it beside the demo. */
  commandLine: string
  flows: readonly SeededFlow[]
}): string {
  const { url } = input
  return `
Flow Chat is running at ${url}${input.workers > 1 ? ` (${input.workers} processes)` : ''}

  Demo pages        ${url}/
  Console           ${url}/admin   (manage flows and read results: sign in with the secret token below)
  Outbox            ${url}/demo/outbox   ${input.smtpConfigured ? '(unused: SMTP_URL is set)' : '(e-mails flows send, kept here: no SMTP_URL set; asks for the secret token)'}
  Widget script     ${url}/widget/v1/flow-chat.js
  API               ${url}/v1/…   (workspace "${input.workspace}")
  Secret token      ${input.tokens.secret}
  Publishable token ${input.tokens.publishable}
  Data              ${input.data}
  Command line      ${input.commandLine}

Flows (inline demo pages):
${input.flows.map((f) => `  ${url}/demo/inline/${f.publicId}  ${f.name}`).join('\n')}

Press Ctrl+C to stop.`
}
