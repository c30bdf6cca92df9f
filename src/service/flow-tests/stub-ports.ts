import { randomBytes } from 'node:crypto'
import { AiClient } from '../ai/ai-client'
import { DEFAULT_AI_TIMEOUTS } from '../ai/ai-config'
import { credentialsKeyFrom } from '../credentials/credentials-key'
import { CredentialsVault } from '../credentials/credentials-vault'
import type { AiCaller, HttpCaller, MailSender, OutgoingEmail } from '../engine/core/ports'
import { newId } from '../ids'
import { AllowList } from '../outbound/address-policy'
import { createOutboundHttp, type OutboundHttp } from '../outbound/outbound-http'
import type { Store } from '../store/store'
import { HTTP_STUB_PATH, type StubServer } from './stub-server'

/**
 * The engine's ports for a flow test run (engine/core/ports.ts), each the real client pointed at
 * the run's stub server: HTTP request blocks call through an outbound guard of the run's own that
 * reaches the stub server's loopback address and no name at all (every URL is sent there, as
 * `/http/<url>`); AI blocks ask the stub's OpenAI-compatible endpoint through the real AI client,
 * whatever credentials or address the block names; e-mails are captured, never sent. The
 * service's own guard, and its allow list, are not involved.
 */
export interface StubPorts {
  http: (workspaceId: string) => HttpCaller
  ai: (workspaceId: string) => AiCaller
  mail: MailSender
  /** The e-mails captured since the last `reset`. */
  readonly emails: OutgoingEmail[]
  reset(): void
  close(): Promise<void>
}

/** The sender captured e-mails name (nothing leaves, so no real address). */
export const TEST_SENDER = 'flow-test@localhost'

export function createStubPorts(stubs: StubServer, store: Pick<Store, 'credentials'>): StubPorts {
  const outbound: OutboundHttp = createOutboundHttp({
    allow: AllowList.parse(new URL(stubs.origin).hostname).list,
    // No name resolves: a redirect from a stub to a real address leads nowhere.
    resolve: async () => [],
  })
  const toStub = (url: string): string => {
    if (url.startsWith(`${stubs.origin}/`)) return url
    // What is not an http(s) address goes as written: the guard refuses it as it would.
    return /^https?:\/\//i.test(url) ? `${stubs.origin}${HTTP_STUB_PATH}${encodeURIComponent(url)}` : url
  }
  const stubbed = {
    apiKey: 'flow-test',
    baseUrl: stubs.aiBaseUrl,
  }
  const ai = new AiClient({
    // Never read: requests lose their credentials below; the client wants a vault all the same.
    vault: new CredentialsVault(store.credentials, credentialsKeyFrom(randomBytes(32).toString('hex')), () => new Date()),
    outbound,
    config: { defaults: { openai: stubbed, mistral: stubbed }, timeouts: DEFAULT_AI_TIMEOUTS },
  })
  const emails: OutgoingEmail[] = []
  return {
    http: (workspaceId) => {
      const calls = outbound.forStep(workspaceId)
      return { request: (request) => calls.request({ ...request, url: toStub(request.url) }) }
    },
    ai: (workspaceId) => {
      const caller = ai.forWorkspace(workspaceId)
      // The provider's default address and key are the stub's: the block's own credentials and address are set aside.
      const toStubProvider = <T extends { credentialsId?: string; baseUrl?: string }>({ credentialsId, baseUrl, ...rest }: T) => rest
      return {
        check: (request) => caller.check(toStubProvider(request)),
        complete: (request, options) => caller.complete(toStubProvider(request), options),
      }
    },
    mail: async ({ email }) => {
      emails.push(email)
      return { via: 'outbox', id: newId(), from: TEST_SENDER }
    },
    emails,
    reset: () => void emails.splice(0),
    close: () => outbound.close(),
  }
}
