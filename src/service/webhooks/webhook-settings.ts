import { MAX_DELIVERIES_PAGE, MAX_WEBHOOK_URL_LENGTH, WEBHOOK_HEADERS, type WebhookDelivery } from '../../protocol/webhooks'
import { type CredentialsKey, open, seal } from '../credentials/credentials-key'
import { HttpError } from '../http/errors'
import type { FlowRecord } from '../store/flows-repository'
import type { Store } from '../store/store'
import type { DeliveryRecord, WebhookRecord } from '../store/webhooks-repository'
import { newWebhookSecret } from './webhook-signature'

/**
 * A flow's completion webhook as its owner sets it (an address; a signing secret made by the
 * service and shown once) and reads its deliveries. It lives beside the flow, not in its content:
 * an exported flow file never carries where its results go nor the secret, and importing someone
 * else's file never sends anyone's answers to an address its new owner did not choose.
 */

export interface WebhookView {
  url: string
  createdAt: string
  updatedAt: string
}

const sealContext = (flowId: string) => `webhook ${flowId}`

export async function readWebhook(store: Store, flow: FlowRecord): Promise<WebhookView | null> {
  const record = await store.webhooks.find(flow.id)
  return record ? view(record) : null
}

/** Sets the address; a secret is made (and returned, this once) for a new webhook or when asked. */
export async function setWebhook(
  store: Store,
  key: CredentialsKey,
  flow: FlowRecord,
  request: { url: string; rotateSecret?: boolean | null },
  now: Date,
): Promise<{ webhook: WebhookView; secret?: string }> {
  const url = checkedUrl(request.url)
  const stored = await store.webhooks.find(flow.id)
  const secret = !stored || request.rotateSecret === true || stored.keyId !== key.id ? newWebhookSecret() : undefined
  await store.webhooks.upsert({
    flowId: flow.id,
    url,
    keyId: secret ? key.id : stored!.keyId,
    sealedSecret: secret ? seal(key, secret, sealContext(flow.id)) : stored!.sealedSecret,
    now: now.toISOString(),
  })
  const webhook = view((await store.webhooks.find(flow.id))!)
  return secret ? { webhook, secret } : { webhook }
}

/** Removes the webhook; deliveries waiting for an attempt are cancelled (one under way finishes). */
export async function removeWebhook(store: Store, flow: FlowRecord, now: Date): Promise<void> {
  if (!(await store.webhooks.remove(flow.id, now.toISOString()))) throw new HttpError('not_found', 'This flow has no webhook.')
}

/** The signing secret of a stored webhook, opened with the credentials key. */
export function webhookSecret(key: CredentialsKey, record: WebhookRecord): string {
  return open(key, record.sealedSecret, sealContext(record.flowId))
}

export async function listDeliveries(store: Store, flow: FlowRecord, limit: number): Promise<WebhookDelivery[]> {
  return (await store.webhooks.listDeliveries(flow.id, Math.min(limit, MAX_DELIVERIES_PAGE))).map(toDelivery)
}

function toDelivery(record: DeliveryRecord): WebhookDelivery {
  const last = record.attempts.at(-1)
  return {
    id: record.id,
    event: record.event,
    resultId: record.resultId,
    status: record.status,
    attempts: record.attempts.map(({ at, status, error }) => ({
      at,
      ...(status === undefined ? {} : { status }),
      ...(error === undefined ? {} : { error }),
    })),
    nextAttemptAt: record.status === 'pending' || record.status === 'sending' ? record.nextAttemptAt : null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    request:
      last && record.payload !== null
        ? {
            headers: {
              'content-type': 'application/json',
              [WEBHOOK_HEADERS.id]: record.id,
              [WEBHOOK_HEADERS.timestamp]: String(last.timestamp),
              [WEBHOOK_HEADERS.signature]: last.signature,
            },
            body: record.payload,
          }
        : null,
  }
}

function view(record: WebhookRecord): WebhookView {
  return { url: record.url, createdAt: record.createdAt, updatedAt: record.updatedAt }
}

/** An http(s) address without credentials; where it points is checked by the outbound guard at each call. */
function checkedUrl(text: string): string {
  const refuse = (message: string) => new HttpError('invalid_body', message, [{ path: 'url', message }])
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw refuse('Not an absolute address such as https://example.com/hooks/flow.')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('Only http and https addresses can be called.')
  if (url.username !== '' || url.password !== '')
    throw refuse('No user name or password in the address: the signature authenticates the call.')
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) throw refuse(`At most ${MAX_WEBHOOK_URL_LENGTH} characters.`)
  return url.href
}
