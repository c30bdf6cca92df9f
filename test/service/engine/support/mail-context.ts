import { credentialsKeyFrom } from '../../../../src/service/credentials/credentials-key'
import { CredentialsVault } from '../../../../src/service/credentials/credentials-vault'
import type { StepContext } from '../../../../src/service/engine/index'
import { Mailer } from '../../../../src/service/mail/mailer'
import type { OutboundHttp } from '../../../../src/service/outbound/outbound-http'
import type { Store } from '../../../../src/service/store/store'

/** The `mail` a step context gets in the service: workspace `acme`'s mailer, to `smtpUrl` (none: the outbox). */
export function mailContext(
  store: Store,
  outbound: OutboundHttp,
  smtpUrl: string | undefined,
  smtpFrom?: string,
): Pick<StepContext, 'mail'> {
  const vault = new CredentialsVault(store.credentials, credentialsKeyFrom('ab'.repeat(32)), () => new Date())
  const mailer = new Mailer({
    vault,
    outbound,
    outbox: store.outbox,
    now: () => new Date(),
    timeoutMs: 2_000,
    ...(smtpUrl ? { smtpUrl } : {}),
    ...(smtpFrom ? { smtpFrom } : {}),
  })
  return { mail: (request) => mailer.send({ workspaceId: 'acme', flowId: 'f', resultId: 'r1', ...request }) }
}
