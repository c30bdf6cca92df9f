import { WEBHOOK_HEADERS } from '../../protocol/webhooks'
import type { CredentialsKey } from '../credentials/credentials-key'
import { newId } from '../ids'
import { log } from '../observability/log'
import { OutboundError, type OutboundHttp } from '../outbound/outbound-http'
import type { Store } from '../store/store'
import type { ClaimedDelivery, DeliveryAttempt } from '../store/webhooks-repository'
import { completionEvent } from './completion-event'
import { handoffWebhookEvent } from './handoff-event'
import { webhookSecret } from './webhook-settings'
import { signWebhook } from './webhook-signature'

/**
 * Sends the completion webhooks the chat steps queued (webhook_deliveries), from every process
 * of the service: each claims the deliveries that are due, under a lease, so one attempt goes out
 * once whichever process takes it, and a process that stops mid-call leaves its deliveries due
 * again when their lease ends. A receiver answering 2xx has it; any other answer or a timeout is
 * retried after the next delay of `retryDelaysMs`, then `failed`; an address the outbound guard
 * refuses fails at once (it would be refused again).
 *
 * Fair between workspaces: a process sends at most `perWorkspace` deliveries of one workspace at
 * once and `maxInFlight` in all, and claims again as soon as any attempt ends, never waiting for a
 * batch. A workspace whose receiver never answers holds its own slots, each for one timeout;
 * another workspace's deliveries go out meanwhile.
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
  /** Deliveries one process sends at once, in all and of one workspace. */
  maxInFlight?: number
  perWorkspace?: number
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
const DEFAULT_MAX_IN_FLIGHT = 32
const DEFAULT_PER_WORKSPACE = 4

export class WebhookDispatcher {
  private readonly owner = `webhooks-${newId()}`
  private readonly retryDelaysMs: readonly number[]
  private readonly timeoutMs: number
  private readonly leaseMs: number
  private readonly maxInFlight: number
  private readonly perWorkspace: number
  /** Attempts under way, and how many of each workspace. */
  private readonly attempts = new Set<Promise<void>>()
  private readonly busy = new Map<string, number>()
  /** Claims run one after another, so the counts they read are the ones they fill. */
  private claiming: Promise<number> = Promise.resolve(0)
  private started = 0
  private timer: NodeJS.Timeout | undefined
  private polling = false
  private stopped = false

  constructor(private readonly options: DispatcherOptions) {
    this.retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.leaseMs = options.leaseMs ?? this.timeoutMs * 3
    this.maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT
    this.perWorkspace = options.perWorkspace ?? DEFAULT_PER_WORKSPACE
  }

  /** Sends what is due now until nothing is and every attempt has ended; returns how many attempts were made. */
  async runDue(): Promise<number> {
    const before = this.started
    for (;;) {
      const claimed = await this.claim()
      if (claimed === 0 && this.attempts.size === 0) return this.started - before
      if (this.stopped) {
        await Promise.all(this.attempts)
        return this.started - before
      }
      if (this.attempts.size > 0) await Promise.race(this.attempts)
    }
  }

  /** Claims every `pollMs` (and at once, and whenever an attempt ends), in the background, until `stop`. */
  start(pollMs = POLL_MS): void {
    this.polling = true
    const poll = () => {
      if (this.stopped) return
      void this.claim()
      this.timer = setTimeout(poll, pollMs)
      this.timer.unref()
    }
    poll()
  }

  /** Stops claiming and waits for the attempts under way. */
  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    await this.claiming
    await Promise.all(this.attempts)
  }

  /** Claims what is due within the free slots and starts it; resolves with how many it started. */
  private claim(): Promise<number> {
    this.claiming = this.claiming.then(async () => {
      const free = this.maxInFlight - this.attempts.size
      if (this.stopped || free <= 0) return 0
      try {
        const { store, now } = this.options
        const claimed = await store.webhooks.claimDue(this.owner, now(), this.leaseMs, free, {
          perWorkspace: this.perWorkspace,
          busy: this.busy,
        })
        for (const delivery of claimed) this.begin(delivery)
        return claimed.length
      } catch (error) {
        log().error({ err: error }, 'claiming completion webhooks failed')
        return 0
      }
    })
    return this.claiming
  }

  private begin(delivery: ClaimedDelivery): void {
    const workspace = delivery.workspaceId
    this.busy.set(workspace, (this.busy.get(workspace) ?? 0) + 1)
    this.started++
    const attempt: Promise<void> = this.attempt(delivery)
      .catch((error: unknown) => log().error({ err: error, delivery: delivery.id }, 'sending a completion webhook failed'))
      .finally(() => {
        this.attempts.delete(attempt)
        const left = (this.busy.get(workspace) ?? 1) - 1
        if (left > 0) this.busy.set(workspace, left)
        else this.busy.delete(workspace)
        // A slot is free: fill it now, not at the next poll (runDue claims in its own loop).
        if (this.polling && !this.stopped) void this.claim()
      })
    this.attempts.add(attempt)
  }

  private async attempt(delivery: ClaimedDelivery): Promise<void> {
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
      const event = delivery.handoffId
        ? await handoffWebhookEvent(store, { handoffId: delivery.handoffId, event: delivery.event, now })
        : await completionEvent(store, { flowId: delivery.flowId, resultId: delivery.resultId, now })
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
      // Refused by the guard (a refused address, a name with none it may call, a bad URL): it would be again.
      const permanent = error instanceof OutboundError && (error.failure === 'refused' || error.failure === 'invalid-url')
      await finish(permanent ? 'failed' : 'pending', attempt)
    }
  }
}
