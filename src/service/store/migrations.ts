import type { Database } from './database'
import type { Tables } from './tables'

interface Migration {
  version: number
  name: string
  statements: (t: Tables) => string[]
}

/**
 * Append-only: a released migration is never edited; changes come as a new version. Each runs in
 * its own transaction together with its `schema_migrations` row.
 */
const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    statements: (t) => [
      `CREATE TABLE ${t.workspaces} (
        id text PRIMARY KEY,
        name text NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE TABLE ${t.apiTokens} (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES ${t.workspaces}(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('secret', 'publishable')),
        token_hash text NOT NULL UNIQUE,
        label text,
        created_at timestamptz NOT NULL
      )`,
      `CREATE TABLE ${t.flows} (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES ${t.workspaces}(id) ON DELETE CASCADE,
        public_id text NOT NULL UNIQUE,
        content jsonb NOT NULL,
        is_closed boolean NOT NULL DEFAULT false,
        is_archived boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX ON ${t.flows} (workspace_id)`,
      // One row per flow; its current snapshot is one of the versions below.
      `CREATE TABLE ${t.publishedFlows} (
        id text PRIMARY KEY,
        flow_id text NOT NULL UNIQUE REFERENCES ${t.flows}(id) ON DELETE CASCADE,
        current_version_id text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      // Every publish is kept, so a session keeps running the snapshot it started on.
      `CREATE TABLE ${t.publishedFlowVersions} (
        id text PRIMARY KEY,
        published_flow_id text NOT NULL REFERENCES ${t.publishedFlows}(id) ON DELETE CASCADE,
        snapshot jsonb NOT NULL,
        published_at timestamptz NOT NULL
      )`,
      `CREATE TABLE ${t.results} (
        id text PRIMARY KEY,
        flow_id text NOT NULL REFERENCES ${t.flows}(id) ON DELETE CASCADE,
        variables jsonb NOT NULL,
        is_completed boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      `CREATE INDEX ON ${t.results} (flow_id)`,
      `CREATE TABLE ${t.sessions} (
        id text PRIMARY KEY,
        flow_id text NOT NULL REFERENCES ${t.flows}(id) ON DELETE CASCADE,
        result_id text NOT NULL REFERENCES ${t.results}(id) ON DELETE CASCADE,
        published_flow_id text NOT NULL,
        published_version_id text NOT NULL REFERENCES ${t.publishedFlowVersions}(id),
        published_at timestamptz NOT NULL,
        state jsonb NOT NULL,
        step integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        last_activity_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        completed_at timestamptz
      )`,
      `CREATE INDEX ON ${t.sessions} (result_id)`,
      `CREATE TABLE ${t.answers} (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        result_id text NOT NULL REFERENCES ${t.results}(id) ON DELETE CASCADE,
        session_id text NOT NULL REFERENCES ${t.sessions}(id) ON DELETE CASCADE,
        block_id text NOT NULL,
        group_id text NOT NULL,
        variable_id text,
        value text NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE INDEX ON ${t.answers} (result_id)`,
      `CREATE TABLE ${t.idempotencyKeys} (
        session_id text NOT NULL REFERENCES ${t.sessions}(id) ON DELETE CASCADE,
        key text NOT NULL,
        request_hash text NOT NULL,
        -- JSON text rather than jsonb: a replay returns the very same bytes, key order included.
        response text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (session_id, key)
      )`,
    ],
  },
  {
    version: 2,
    name: 'session leases, shared rate limits, purgeable sessions',
    statements: (t) => [
      // A step holds its session by a lease (owner token, expiry) instead of a row lock, so the
      // flow runs outside any transaction and a crashed holder's lease simply expires.
      // No index on expires_at: every step moves it, and an index would be rewritten each time
      // (the purge, every ten minutes, scans instead).
      `ALTER TABLE ${t.sessions} ADD COLUMN lease_owner text, ADD COLUMN lease_expires_at timestamptz`,
      // Answers belong to results and outlive the sessions that collected them (sessions are
      // purged): `session_id` keeps naming the visit, with no key to maintain on every answer.
      `ALTER TABLE ${t.answers} DROP CONSTRAINT IF EXISTS answers_session_id_fkey`,
      // Token buckets every service process shares. No index beyond the key: every request
      // updates its bucket, which then stays a cheap in-place (HOT) update; the rare purge of idle
      // buckets scans this small table instead.
      `CREATE TABLE ${t.rateLimits} (
        key text PRIMARY KEY,
        tokens double precision NOT NULL,
        allowed boolean NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
    ],
  },
  {
    version: 3,
    name: 'integrations: credentials, result logs, e-mail outbox',
    statements: (t) => [
      // Ids are the owner's (an imported flow names them), so they are unique per workspace only.
      // `sealed` is AES-256-GCM ciphertext; `key_id` names the key, never the key itself.
      `CREATE TABLE ${t.credentials} (
        workspace_id text NOT NULL REFERENCES ${t.workspaces}(id) ON DELETE CASCADE,
        id text NOT NULL,
        type text NOT NULL,
        name text NOT NULL,
        key_id text NOT NULL,
        sealed text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, id)
      )`,
      `CREATE INDEX ON ${t.credentials} (key_id)`,
      // Every log a step wrote, sensitive ones included (those never reach the widget).
      `CREATE TABLE ${t.resultLogs} (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        result_id text NOT NULL REFERENCES ${t.results}(id) ON DELETE CASCADE,
        session_id text,
        status text NOT NULL,
        description text NOT NULL,
        details jsonb,
        created_at timestamptz NOT NULL
      )`,
      `CREATE INDEX ON ${t.resultLogs} (result_id)`,
      // E-mails a flow sent while no SMTP server was configured, to read instead of receive.
      `CREATE TABLE ${t.outbox} (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES ${t.workspaces}(id) ON DELETE CASCADE,
        flow_id text,
        result_id text,
        message jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE INDEX ON ${t.outbox} (workspace_id, created_at)`,
    ],
  },
  {
    version: 4,
    name: 'streamed AI answers',
    statements: (t) => [
      // One row per streamed answer a session waited for (its `stream` wait), recorded by the
      // service: `running` while a process (`owner`, holding it until `lease_expires_at`) reads
      // the provider, with the text so far; `done` with the whole answer; `failed` (nothing
      // recorded) until the next request starts over. Gone with its session.
      `CREATE TABLE ${t.aiStreams} (
        session_id text NOT NULL REFERENCES ${t.sessions}(id) ON DELETE CASCADE,
        stream_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('running', 'done', 'failed')),
        text text NOT NULL,
        usage jsonb,
        error jsonb,
        owner text,
        lease_expires_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (session_id, stream_id)
      )`,
    ],
  },
  {
    version: 5,
    name: 'streamed AI answers: written as parts, counted per workspace',
    statements: (t) => [
      // A running answer's text grows by appended parts (below) rather than by rewriting the
      // whole text: `text` keeps only answers recorded before this version. `workspace_id` counts
      // a workspace's running streams (the partial index stays small: only running rows);
      // `finish_reason` is `length` for an answer cut at its byte budget.
      `ALTER TABLE ${t.aiStreams} ADD COLUMN workspace_id text, ADD COLUMN finish_reason text`,
      `CREATE INDEX ON ${t.aiStreams} (workspace_id) WHERE status = 'running'`,
      // The text of an answer in the order it came (`seq` from 1), written once each; the answer
      // is their concatenation. Gone with their stream (a failed or restarted one deletes them).
      `CREATE TABLE ${t.aiStreamParts} (
        session_id text NOT NULL,
        stream_id text NOT NULL,
        seq integer NOT NULL,
        text text NOT NULL,
        PRIMARY KEY (session_id, stream_id, seq),
        FOREIGN KEY (session_id, stream_id) REFERENCES ${t.aiStreams} (session_id, stream_id) ON DELETE CASCADE
      )`,
    ],
  },
  {
    version: 6,
    name: 'results pages, token hints, unpublishing, completion webhooks',
    statements: (t) => [
      // Results are read newest first a page at a time, from a position (created_at, id): an
      // ascending index read backwards serves both the order and the position's row comparison.
      // It begins with flow_id, so the index on flow_id alone goes.
      `CREATE INDEX results_flow_created_idx ON ${t.results} (flow_id, created_at, id)`,
      `DROP INDEX IF EXISTS ${t.schema}.results_flow_id_idx`,
      // The last characters of a token, kept at creation so owners can tell their tokens apart.
      `ALTER TABLE ${t.apiTokens} ADD COLUMN hint text`,
      // An unpublished flow keeps its published flow row (and the versions running conversations
      // use) with no current version.
      `ALTER TABLE ${t.publishedFlows} ALTER COLUMN current_version_id DROP NOT NULL`,
      // A flow's completion webhook: where to call, and the signing secret sealed with the
      // credentials key (key_id names the key).
      `CREATE TABLE ${t.flowWebhooks} (
        flow_id text PRIMARY KEY REFERENCES ${t.flows}(id) ON DELETE CASCADE,
        url text NOT NULL,
        key_id text NOT NULL,
        sealed_secret text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`,
      // One row per result that completed while its flow had a webhook, written by the step that
      // completed it (so a crash loses none) and sent by whichever process claims it when due:
      // 'sending' holds it until next_attempt_at (the claim's lease), then it is due again.
      // `payload` is fixed at the first attempt, so every retry sends the same bytes.
      `CREATE TABLE ${t.webhookDeliveries} (
        id text PRIMARY KEY,
        flow_id text NOT NULL REFERENCES ${t.flows}(id) ON DELETE CASCADE,
        result_id text NOT NULL REFERENCES ${t.results}(id) ON DELETE CASCADE,
        event text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'sending', 'delivered', 'failed', 'cancelled')),
        payload text,
        attempts integer NOT NULL DEFAULT 0,
        attempt_log jsonb NOT NULL DEFAULT '[]',
        next_attempt_at timestamptz,
        lease_owner text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        UNIQUE (result_id, event)
      )`,
      `CREATE INDEX ON ${t.webhookDeliveries} (next_attempt_at) WHERE status IN ('pending', 'sending')`,
      `CREATE INDEX ON ${t.webhookDeliveries} (flow_id, created_at)`,
    ],
  },
  {
    version: 7,
    name: 'uploaded files',
    statements: (t) => [
      // One row per file a visitor uploaded to a file input (its bytes are in the file storage
      // under `storage_key`). `session_id` stays after the session is purged: a file the
      // result's answers never named is then deleted (session-purge.ts); a named one lives as
      // long as its result. `private`: served only with the secret token or a signed URL.
      `CREATE TABLE ${t.uploads} (
        id text PRIMARY KEY,
        workspace_id text NOT NULL,
        result_id text NOT NULL,
        session_id text NOT NULL,
        block_id text NOT NULL,
        storage_key text NOT NULL,
        name text NOT NULL,
        type text NOT NULL,
        size bigint NOT NULL,
        private boolean NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE INDEX ON ${t.uploads} (session_id, block_id)`,
      `CREATE INDEX ON ${t.uploads} (result_id)`,
    ],
  },
  {
    version: 8,
    name: 'answers as the visitor saw them',
    statements: (t) => [
      // What the visitor's bubble showed when it is not the stored value (a choice's label where
      // `value` is the item's value); null otherwise, and for answers recorded before this version.
      `ALTER TABLE ${t.answers} ADD COLUMN display text`,
    ],
  },
  {
    version: 9,
    name: 'share page tokens stay revoked',
    statements: (t) => [
      // Set when the workspace revoked its share pages' token: none is minted again until the
      // owner creates a `share-page` token (share/share-token.ts).
      `ALTER TABLE ${t.workspaces} ADD COLUMN share_tokens_revoked_at timestamptz`,
    ],
  },
  {
    version: 10,
    name: 'upload quotas',
    statements: (t) => [
      // Quotas count a client's and a workspace's recent uploads not yet sent (uploads/upload-quotas.ts):
      // `client_key` is the network it came from (an IPv6 /64). `sent` is set once the purge finds the
      // upload sent as its own question's answer, so the purge looks at each upload once, and the
      // partial index keeps what it still has to look at small.
      `ALTER TABLE ${t.uploads} ADD COLUMN client_key text NOT NULL DEFAULT '', ADD COLUMN sent boolean NOT NULL DEFAULT false`,
      `CREATE INDEX ON ${t.uploads} (workspace_id, created_at)`,
      `CREATE INDEX ON ${t.uploads} (client_key, created_at)`,
      `CREATE INDEX ON ${t.uploads} (created_at) WHERE NOT sent`,
    ],
  },
  {
    version: 11,
    name: 'conversations handed to a person',
    statements: (t) => [
      // One row per `handoff` block reached, written by the step that reached it (step-writes.ts),
      // so a session never waits for a handoff nobody can see. `session_id` stays after the
      // session is purged (no key); `status` moves by conditional UPDATEs only (claim: waiting →
      // live, so two people never both win). `last_seq` numbers its events. `continued_at` is set
      // with the `continued` event once the flow went on: a handoff ended without it is resumed
      // again by the sweep (chat/handoff-sweep.ts). `variables`: what the person set, by name.
      `CREATE TABLE ${t.handoffs} (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES ${t.workspaces}(id) ON DELETE CASCADE,
        flow_id text NOT NULL REFERENCES ${t.flows}(id) ON DELETE CASCADE,
        result_id text NOT NULL REFERENCES ${t.results}(id) ON DELETE CASCADE,
        session_id text NOT NULL,
        block_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('waiting', 'live', 'ended', 'unanswered', 'left')),
        agent_token_id text,
        agent jsonb,
        visible_variables jsonb NOT NULL DEFAULT '[]',
        variables jsonb NOT NULL DEFAULT '{}',
        last_seq integer NOT NULL DEFAULT 0,
        requested_at timestamptz NOT NULL,
        claimed_at timestamptz,
        ended_at timestamptz,
        deadline timestamptz,
        continued_at timestamptz
      )`,
      `CREATE INDEX ON ${t.handoffs} (workspace_id, requested_at, id)`,
      `CREATE INDEX ON ${t.handoffs} (session_id)`,
      `CREATE INDEX ON ${t.handoffs} (result_id)`,
      `CREATE INDEX ON ${t.handoffs} (deadline) WHERE status = 'waiting'`,
      `CREATE INDEX ON ${t.handoffs} (ended_at) WHERE continued_at IS NULL AND status IN ('ended', 'unanswered', 'left')`,
      // The events of a handoff, `seq` from 1 without gaps (the handoff row's lock hands them out,
      // so they commit in order): a client resumes after the last it holds. `position` orders a
      // workspace's events the same way for its inbox (handoff_positions' row lock hands them out).
      // `idempotency_key`: a visitor's message sent twice is stored once.
      `CREATE TABLE ${t.handoffEvents} (
        handoff_id text NOT NULL REFERENCES ${t.handoffs}(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        workspace_id text NOT NULL,
        position bigint NOT NULL,
        type text NOT NULL,
        body jsonb NOT NULL,
        idempotency_key text,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (handoff_id, seq)
      )`,
      `CREATE INDEX ON ${t.handoffEvents} (workspace_id, position)`,
      `CREATE UNIQUE INDEX ON ${t.handoffEvents} (handoff_id, idempotency_key) WHERE idempotency_key IS NOT NULL`,
      `CREATE TABLE ${t.handoffPositions} (
        workspace_id text PRIMARY KEY,
        position bigint NOT NULL
      )`,
      // Agent tokens: people who answer handed-over conversations, with the name and picture visitors see.
      `ALTER TABLE ${t.apiTokens} DROP CONSTRAINT IF EXISTS api_tokens_kind_check`,
      `ALTER TABLE ${t.apiTokens} ADD CONSTRAINT api_tokens_kind_check CHECK (kind IN ('secret', 'publishable', 'agent'))`,
      `ALTER TABLE ${t.apiTokens} ADD COLUMN agent_name text, ADD COLUMN agent_avatar_url text`,
      // Handoff deliveries (handoff.requested, handoff.ended) are one per handoff and event;
      // result.completed stays one per result.
      `ALTER TABLE ${t.webhookDeliveries} ADD COLUMN handoff_id text`,
      `ALTER TABLE ${t.webhookDeliveries} DROP CONSTRAINT IF EXISTS webhook_deliveries_result_id_event_key`,
      `CREATE UNIQUE INDEX webhook_deliveries_result_event ON ${t.webhookDeliveries} (result_id, event) WHERE handoff_id IS NULL`,
      `CREATE UNIQUE INDEX webhook_deliveries_handoff_event ON ${t.webhookDeliveries} (handoff_id, event) WHERE handoff_id IS NOT NULL`,
    ],
  },
  {
    // Self-contained: depends on nothing after migration 10.
    version: 12,
    name: 'flow versions: numbered, signed, noted; results name theirs',
    statements: (t) => [
      // Every publish was already a row here (sessions run on theirs). A version now has its
      // number per flow (1, 2, 3…, never reused), the name of the token that published it, the
      // author's note, and the number it restored when it was a rollback.
      `ALTER TABLE ${t.publishedFlowVersions} ADD COLUMN number integer, ADD COLUMN published_by text,
         ADD COLUMN note text, ADD COLUMN restored_from integer`,
      `UPDATE ${t.publishedFlowVersions} v SET number = n.number
       FROM (SELECT id, row_number() OVER (PARTITION BY published_flow_id ORDER BY published_at, id) AS number
             FROM ${t.publishedFlowVersions}) n
       WHERE v.id = n.id`,
      `ALTER TABLE ${t.publishedFlowVersions} ALTER COLUMN number SET NOT NULL`,
      `CREATE UNIQUE INDEX published_flow_versions_number_idx ON ${t.publishedFlowVersions} (published_flow_id, number)`,
      // The version a result's conversation ran (its number: it outlives a pruned version and
      // the purged session). Results from before this migration take their latest session's.
      `ALTER TABLE ${t.results} ADD COLUMN version integer`,
      `UPDATE ${t.results} r SET version = s.number
       FROM (SELECT DISTINCT ON (s.result_id) s.result_id, v.number
             FROM ${t.sessions} s JOIN ${t.publishedFlowVersions} v ON v.id = s.published_version_id
             ORDER BY s.result_id, s.created_at DESC) s
       WHERE r.id = s.result_id`,
    ],
  },
  {
    // Self-contained: depends on nothing after migration 11.
    version: 13,
    name: 'retention and erasure: the workspace setting, the audit, job leases',
    statements: (t) => [
      // Days a workspace keeps a visitor's data after its last activity; null keeps it (the default).
      `ALTER TABLE ${t.workspaces} ADD COLUMN retention_days integer CHECK (retention_days IS NULL OR retention_days > 0)`,
      // What was deleted (or exported), how many rows of each kind, by whom: never the data nor
      // the value a visitor was found by (`selector` names its kind and variable only).
      `CREATE TABLE ${t.privacyAudit} (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES ${t.workspaces}(id) ON DELETE CASCADE,
        action text NOT NULL CHECK (action IN ('erase', 'access', 'retention')),
        selector text,
        token_id text,
        actor text NOT NULL,
        counts jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE INDEX ON ${t.privacyAudit} (workspace_id, created_at, id)`,
      // A job one process of many runs at a time (the retention job): whoever holds the lease
      // (`owner` until `expires_at`) runs it; `progress` is what the last holder wrote, so the next
      // one carries on and operators can read how far it got.
      `CREATE TABLE ${t.jobLeases} (
        name text PRIMARY KEY,
        owner text,
        expires_at timestamptz,
        progress jsonb NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL
      )`,
      // Deleting results (erasure, retention, the results API) cascades to these by result_id:
      // the existing indexes on it are partial (webhook deliveries) or missing (outbox).
      `CREATE INDEX ON ${t.webhookDeliveries} (result_id)`,
      `CREATE INDEX ON ${t.outbox} (result_id)`,
    ],
  },
  {
    // Self-contained: depends on nothing after migration 12 (numbered after the privacy one).
    version: 14,
    name: 'identified visitors: identity secrets, results of a user',
    statements: (t) => [
      // A workspace's identity secrets (identity/identity-secrets.ts): the current one has no
      // `retires_at`; a rotated-out one verifies until then. Sealed with the credentials key.
      `CREATE TABLE ${t.identitySecrets} (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES ${t.workspaces}(id) ON DELETE CASCADE,
        key_id text NOT NULL,
        sealed_secret text NOT NULL,
        hint text NOT NULL,
        created_at timestamptz NOT NULL,
        retires_at timestamptz
      )`,
      `CREATE INDEX ON ${t.identitySecrets} (workspace_id)`,
      // The verified user a result's conversation belongs to (null: anonymous). A start finds the
      // user's latest result of the flow by the partial index; the results filter uses it too.
      `ALTER TABLE ${t.results} ADD COLUMN user_id text`,
      `CREATE INDEX results_flow_user_idx ON ${t.results} (flow_id, user_id, created_at) WHERE user_id IS NOT NULL`,
      // The last step an identified session answered (its response JSON), so another device
      // resumes at that step; null for anonymous sessions, which never write it.
      `ALTER TABLE ${t.sessions} ADD COLUMN last_step text`,
    ],
  },
  {
    // Self-contained: depends on nothing after migration 14.
    version: 15,
    name: 'where visitors drop off: completion time, answers by result',
    statements: (t) => [
      // When a result's conversation first completed (null: not completed): the analytics' time
      // to finish. `updated_at` moves with later writes; results completed before this version
      // take it, their best-known completion time.
      `ALTER TABLE ${t.results} ADD COLUMN completed_at timestamptz`,
      `UPDATE ${t.results} SET completed_at = updated_at WHERE is_completed`,
      // The analytics read a flow's results by date (results_flow_created_idx) and each result's
      // answers by this index alone (no visit to the answers' rows, which hold the values):
      // where each stopped is its last answer, read backwards from the index's end.
      `CREATE INDEX answers_result_position_idx ON ${t.answers} (result_id, created_at, id) INCLUDE (group_id, block_id)`,
      `DROP INDEX IF EXISTS ${t.schema}.answers_result_id_idx`,
    ],
  },
]

export const LATEST_SCHEMA_VERSION = MIGRATIONS.length

/** Brings the schema up to date. Safe when several processes start at once (advisory lock). */
export async function migrate(db: Database, t: Tables): Promise<number[]> {
  // Creating the schema races when two processes start on an empty database: take the lock first.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [t.migrations])
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${t.schema}`)
    await tx.query(`CREATE TABLE IF NOT EXISTS ${t.migrations} (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL
    )`)
  })
  const applied: number[] = []
  for (const migration of MIGRATIONS) {
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [t.migrations])
      const rows = await tx.query(`SELECT 1 FROM ${t.migrations} WHERE version = $1`, [migration.version])
      if (rows.length > 0) return false
      for (const statement of migration.statements(t)) await tx.query(statement)
      await tx.query(`INSERT INTO ${t.migrations} (version, name, applied_at) VALUES ($1, $2, $3)`, [
        migration.version,
        migration.name,
        new Date(),
      ])
      return true
    })
    if (done) applied.push(migration.version)
  }
  return applied
}
