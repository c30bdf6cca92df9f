import { WEBHOOK_HEADERS } from '../../protocol/webhooks'
import type { CredentialsKey } from '../credentials/credentials-key'
import { newId } from '../ids'
import type { OutboundHttp } from '../outbound/outbound-http'
import type { Store } from '../store/store'
import type { DeliveryAttempt, DeliveryRecord } from '../store/webhooks-repository'
import { completionEvent } from './completion-event'
import { webhookSecret } from './webhook-settings'
import { signWebhook } from './webhook-signature'
import { log } from '../observability/log'

/**
 * Sends the completion webhooks the chat steps queued (webhook_deliveries), from every process
 * of the service: each claims the deliveries that are due, under a lease, so one attempt goes out
 * once whichever process takes it, and a process that stops mid-call leaves its deliveries due
 * again when their lease ends. A receiver answering 2xx has it; any other answer, a refused
 * address or a timeout is retried after the next delay of `retryDelaysMs`, then `failed`.
 */

export interface DispatcherOptions {
  store: Store
  key: CredentialsKey
  outbound: OutboundHttp
  now: () => Date
  /** Waits before the 2nd, 3rd… attempts; their number is the number of retries. */
  retryDelaysMs?: readonly number[]
  /** How long a claimed delivery is held: longer than one call can take. */
  leaseMs?: number
  timeoutMs?: number
  /** Deliveries claimed per round. */
  batch?: number
}

/** About a day and a half of retries: minutes, then hours. */
export const DEFAULT_RETRY_DELAYS_MS = [
  30_000,
  2 * 60_000,
  10 * 60_000,
  60 * 60_000,
  3 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
]
const DEFAULT_TIMEOUT_MS = 10_000
/** What is read of a receiver's answer: its status matters, not its body. */
const MAX_RESPONSE_BYTES = 16 * 1024
const POLL_MS = 2_000

export class WebhookDispatcher {
  private readonly owner = `webhooks-${newId()}`
  private readonly retryDelaysMs: readonly number[]
  private readonly timeoutMs: number
  private readonly leaseMs: number
  private timer: NodeJS.Timeout | undefined
  private running: Promise<number> | undefined
  private stopped = false

  constructor(private readonly options: DispatcherOptions) {
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.leaseMs = options.leaseMs ?? this.timeoutMs * 3
  }

  /** Sends what is due now, a batch at a time, until nothing is; returns how many attempts were made. */
  async runDue(): Promise<number> {
    let made = 0
    for (;;) {
      const claimed = await this.options.store.webhooks.claimDue(this.owner, this.options.now(), this.leaseMs, this.options.batch ?? 20)
      await Promise.all(claimed.map((delivery) => this.attempt(delivery)))
      made += claimed.length
      if (claimed.length === 0 || this.stopped) return made
    }
  }

  /** Polls every `pollMs` (and at once), in the background, until `stop`. */
  start(pollMs = POLL_MS): void {
    const round = () => {
      if (this.stopped) return
      this.running = this.runDue()
        .catch((error: unknown) => {
          log().error({ err: error }, 'sending completion webhooks failed')
          return 0
        })
        .finally(() => {
          this.running = undefined
          if (!this.stopped) {
            this.timer = setTimeout(round, pollMs)
            this.timer.unref()
          }
        })
    }
    round()
  }

  /** Stops polling and waits for the round under way. */
  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    await this.running
  }

  private async attempt(delivery: DeliveryRecord): Promise<void> {
    const { store, key, outbound } = this.options
    const now = this.options.now()
    const finish = (status: 'delivered' | 'failed' | 'cancelled' | 'pending', attempt?: DeliveryAttempt) => {
      const retries = delivery.attempts.length + (attempt ? 1 : 0)
      const delay = this.retryDelaysMs[retries - 1]
      const final = status === 'pending' && delay === undefined ? 'failed' : status
      const nextAttemptAt = final === 'pending' ? new Date(now.getTime() + delay!).toISOString() : null
      return store.webhooks.finishAttempt({
        id: delivery.id,
        owner: this.owner,
        attempt,
        status: final,
        nextAttemptAt,
        now: now.toISOString(),
      })
    }

    const [webhook, flow] = await Promise.all([store.webhooks.find(delivery.flowId), store.flows.findById(delivery.flowId)])
    if (!webhook || !flow) return void (await finish('cancelled'))
    let body = delivery.payload
    if (body === null) {
      const event = await completionEvent(store, { flowId: delivery.flowId, resultId: delivery.resultId, now })
      if (!event) return void (await finish('cancelled'))
      body = await store.webhooks.fixPayload(delivery.id, JSON.stringify(event))
    }
    const timestamp = Math.floor(now.getTime() / 1000)
    const attempt: DeliveryAttempt = { at: now.toISOString(), timestamp, signature: '' }
    try {
      // A secret that no longer opens (CREDENTIALS_KEY changed) fails the attempt like a refused call.
      attempt.signature = signWebhook(webhookSecret(key, webhook), delivery.id, timestamp, body)
      const response = await outbound.forWorkspace(flow.workspaceId).request({
        url: webhook.url,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'flow-service-webhooks',
          [WEBHOOK_HEADERS.id]: delivery.id,
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.signature]: attempt.signature,
        },
        body,
        timeoutMs: this.timeoutMs,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      })
      attempt.status = response.status
      await finish(response.status >= 200 && response.status < 300 ? 'delivered' : 'pending', attempt)
    } catch (error) {
      attempt.error = error instanceof Error ? error.message : String(error)
      await finish('pending', attempt)
    }
  }
}
