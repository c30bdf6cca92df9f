import type { Queryable } from './database'
import { isoTimestamp, isoTimestampOrNull, type Tables } from './tables'

/** A flow's completion webhook: where to call, and its signing secret sealed with the credentials key. */
export interface WebhookRecord {
  flowId: string
  url: string
  keyId: string
  sealedSecret: string
  createdAt: string
  updatedAt: string
}

export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed' | 'cancelled'

/** One attempt at a delivery, as the deliveries list shows it. */
export interface DeliveryAttempt {
  at: string
  /** The `webhook-timestamp` it was signed with (seconds), and its signature. */
  timestamp: number
  signature: string
  status?: number
  error?: string
}

export interface DeliveryRecord {
  id: string
  /** The handoff a `handoff.*` delivery is about; null for `result.completed`. */
  handoffId: string | null
  flowId: string
  resultId: string
  event: string
  status: DeliveryStatus
  /** The body, fixed at the first attempt so every retry sends the same bytes. */
  payload: string | null
  attempts: DeliveryAttempt[]
  nextAttemptAt: string | null
  createdAt: string
  updatedAt: string
}

/** A delivery claimed for sending, with the workspace whose slots it takes. */
export interface ClaimedDelivery extends DeliveryRecord {
  workspaceId: string
}

const DELIVERY_COLUMNS = 'id, flow_id, result_id, event, status, payload, attempt_log, next_attempt_at, created_at, updated_at, handoff_id'

const toDelivery = (row: Record<string, unknown>): DeliveryRecord => ({
  id: String(row.id),
  handoffId: (row.handoff_id as string | null) ?? null,
  flowId: String(row.flow_id),
  resultId: String(row.result_id),
  event: String(row.event),
  status: row.status as DeliveryStatus,
  payload: typeof row.payload === 'string' ? row.payload : null,
  attempts: Array.isArray(row.attempt_log) ? (row.attempt_log as DeliveryAttempt[]) : [],
  nextAttemptAt: isoTimestampOrNull(row.next_attempt_at),
  createdAt: isoTimestamp(row.created_at),
  updatedAt: isoTimestamp(row.updated_at),
})

/**
 * Completion webhooks and their deliveries. A delivery row is written by the chat step that
 * completes a result (step-writes.ts), then claimed by whichever process finds it due: claiming
 * sets `sending` with a lease until `next_attempt_at`, so a process that dies mid-call leaves it
 * due again, and two processes never send one attempt twice (`SKIP LOCKED`).
 */
export class WebhooksRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  async find(flowId: string): Promise<WebhookRecord | undefined> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT flow_id, url, key_id, sealed_secret, created_at, updated_at FROM ${this.t.flowWebhooks} WHERE flow_id = $1`,
      [flowId],
    )
    const row = rows[0]
    return (
      row && {
        flowId: String(row.flow_id),
        url: String(row.url),
        keyId: String(row.key_id),
        sealedSecret: String(row.sealed_secret),
        createdAt: isoTimestamp(row.created_at),
        updatedAt: isoTimestamp(row.updated_at),
      }
    )
  }

  /** Sets the flow's webhook: its address and its (sealed) signing secret. */
  async upsert(input: { flowId: string; url: string; keyId: string; sealedSecret: string; now: string }): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.t.flowWebhooks} (flow_id, url, key_id, sealed_secret, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT (flow_id) DO UPDATE SET url = EXCLUDED.url, key_id = EXCLUDED.key_id,
         sealed_secret = EXCLUDED.sealed_secret, updated_at = EXCLUDED.updated_at`,
      [input.flowId, input.url, input.keyId, input.sealedSecret, input.now],
    )
  }

  /** Removes the flow's webhook and cancels its deliveries waiting for an attempt; false when it had none. */
  async remove(flowId: string, now: string): Promise<boolean> {
    const rows = await this.db.query<{ removed: number }>(
      `WITH w AS (DELETE FROM ${this.t.flowWebhooks} WHERE flow_id = $1 RETURNING flow_id),
       c AS (
         UPDATE ${this.t.webhookDeliveries} SET status = 'cancelled', next_attempt_at = NULL, updated_at = $2
         WHERE flow_id IN (SELECT flow_id FROM w) AND status = 'pending')
       SELECT count(*)::int AS removed FROM w`,
      [flowId, now],
    )
    return (rows[0]?.removed ?? 0) > 0
  }

  /**
   * Queues a handoff's delivery (`handoff.ended`) when its flow has a webhook; once per handoff
   * and event, however often it is asked (the step that requested it queued `handoff.requested`).
   */
  async queueHandoffDelivery(handoffId: string, event: string, now: string): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.t.webhookDeliveries} (id, flow_id, result_id, event, status, next_attempt_at, created_at, updated_at, handoff_id)
       SELECT replace($2, '.', '-') || '-' || h.id, h.flow_id, h.result_id, $2, 'pending', $3, $3, $3, h.id
       FROM ${this.t.handoffs} h JOIN ${this.t.flowWebhooks} w ON w.flow_id = h.flow_id
       WHERE h.id = $1
       ON CONFLICT DO NOTHING`,
      [handoffId, event, now],
    )
  }

  /** Deliveries of a flow, newest first. */
  async listDeliveries(flowId: string, limit: number): Promise<DeliveryRecord[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT ${DELIVERY_COLUMNS} FROM ${this.t.webhookDeliveries} WHERE flow_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [flowId, limit],
    )
    return rows.map(toDelivery)
  }

  /**
   * Takes deliveries due at `now` for `owner`, holding each until `now + leaseMs`, fairly between
   * workspaces: at most `perWorkspace` of a workspace's in flight (counting the `busy` ones this
   * process already sends), each workspace's first before any workspace's second, `limit` in all.
   * So a workspace whose receiver never answers fills its own slots, never another's. Rows
   * another process is claiming are skipped, never waited for.
   */
  async claimDue(
    owner: string,
    now: Date,
    leaseMs: number,
    limit: number,
    fairness: { perWorkspace: number; busy?: ReadonlyMap<string, number> } = { perWorkspace: limit },
  ): Promise<ClaimedDelivery[]> {
    const busy = [...(fairness.busy ?? new Map<string, number>())]
    const due = `d.status IN ('pending', 'sending') AND d.next_attempt_at <= $2`
    const rows = await this.db.query<Record<string, unknown>>(
      `WITH busy AS (SELECT * FROM unnest($5::text[], $6::int[]) AS b(workspace_id, n)),
       workspaces AS (
         SELECT DISTINCT f.workspace_id FROM ${this.t.webhookDeliveries} d JOIN ${this.t.flows} f ON f.id = d.flow_id WHERE ${due}),
       taken AS (
         SELECT w.workspace_id, x.id, x.next_attempt_at FROM workspaces w
         LEFT JOIN busy b ON b.workspace_id = w.workspace_id
         CROSS JOIN LATERAL (
           SELECT d.id, d.next_attempt_at FROM ${this.t.webhookDeliveries} d JOIN ${this.t.flows} f ON f.id = d.flow_id
           WHERE f.workspace_id = w.workspace_id AND ${due}
           ORDER BY d.next_attempt_at, d.id
           LIMIT greatest(0, $7::int - coalesce(b.n, 0))
           FOR UPDATE OF d SKIP LOCKED) x),
       chosen AS (
         SELECT id, workspace_id FROM (
           SELECT id, workspace_id, next_attempt_at, row_number() OVER (PARTITION BY workspace_id ORDER BY next_attempt_at, id) AS turn FROM taken
         ) ranked ORDER BY turn, next_attempt_at, id LIMIT $4)
       UPDATE ${this.t.webhookDeliveries} d
       SET status = 'sending', lease_owner = $1, next_attempt_at = $2::timestamptz + make_interval(secs => $3::float8)
       FROM chosen WHERE d.id = chosen.id
       RETURNING ${DELIVERY_COLUMNS.split(', ')
         .map((column) => `d.${column}`)
         .join(', ')}, chosen.workspace_id`,
      [
        owner,
        now.toISOString(),
        leaseMs / 1000,
        limit,
        busy.map(([workspace]) => workspace),
        busy.map(([, n]) => n),
        fairness.perWorkspace,
      ],
    )
    return rows.map((row) => ({ ...toDelivery(row), workspaceId: String(row.workspace_id) }))
  }

  /** Fixes the body at the first attempt; returns the body every attempt sends. */
  async fixPayload(id: string, payload: string): Promise<string> {
    const rows = await this.db.query<{ payload: string }>(
      `UPDATE ${this.t.webhookDeliveries} SET payload = COALESCE(payload, $2) WHERE id = $1 RETURNING payload`,
      [id, payload],
    )
    return rows[0]?.payload ?? payload
  }

  /**
   * Records an attempt and what follows (delivered, failed, cancelled, or pending again at
   * `nextAttemptAt`), if `owner` still holds the delivery. False when its lease was lost.
   */
  async finishAttempt(input: {
    id: string
    owner: string
    attempt?: DeliveryAttempt
    status: Exclude<DeliveryStatus, 'sending'>
    nextAttemptAt: string | null
    now: string
  }): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE ${this.t.webhookDeliveries}
       SET status = $3, next_attempt_at = $4, lease_owner = NULL, updated_at = $5,
           attempts = attempts + CASE WHEN $6::jsonb IS NULL THEN 0 ELSE 1 END,
           attempt_log = CASE WHEN $6::jsonb IS NULL THEN attempt_log ELSE attempt_log || jsonb_build_array($6::jsonb) END
       WHERE id = $1 AND lease_owner = $2 AND status = 'sending' RETURNING 1`,
      [input.id, input.owner, input.status, input.nextAttemptAt, input.now, input.attempt ? JSON.stringify(input.attempt) : null],
    )
    return rows.length > 0
  }
}
