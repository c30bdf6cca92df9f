import type { PublishedFlow } from '../../protocol/index'
import type { Queryable } from './database'
import { isoTimestamp, type Tables } from './tables'

/** What a version says about itself, without its snapshot. */
export interface VersionHeader {
  versionId: string
  publishedFlowId: string
  flowId: string
  /** 1, 2, 3… per flow, in publishing order; never reused. */
  number: number
  /** The published flow's `updatedAt` at this version (what startChat calls `publishedAt`). */
  publishedAt: string
  /** The name of the token (or the command line) that published it; null before versions were signed. */
  publishedBy: string | null
  note: string | null
  /** The version a rollback published again; null for an ordinary publish. */
  restoredFrom: number | null
}

/** One published version: the snapshot a chat runs on. */
export interface PublishedVersion extends VersionHeader {
  snapshot: PublishedFlow
}

/** Who published, and why: what a publish adds to the snapshot. */
export interface VersionSignature {
  publishedBy: string
  note: string | null
  restoredFrom: number | null
}

interface HeaderRow {
  version_id: string
  published_flow_id: string
  flow_id: string
  number: number
  published_at: unknown
  published_by: string | null
  note: string | null
  restored_from: number | null
}

interface VersionRow extends HeaderRow {
  snapshot: PublishedFlow
}

const HEADER_COLUMNS = `v.id AS version_id, p.id AS published_flow_id, p.flow_id, v.number, v.published_at,
  v.published_by, v.note, v.restored_from`

const toHeader = (row: HeaderRow): VersionHeader => ({
  versionId: row.version_id,
  publishedFlowId: row.published_flow_id,
  flowId: row.flow_id,
  number: Number(row.number),
  publishedAt: isoTimestamp(row.published_at),
  publishedBy: row.published_by,
  note: row.note,
  restoredFrom: row.restored_from === null ? null : Number(row.restored_from),
})

const toVersion = (row: VersionRow): PublishedVersion => ({ ...toHeader(row), snapshot: row.snapshot })

export class PublishedFlowsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /**
   * The published flow row of a flow (id and creation time stay stable across re-publishes;
   * `updatedAt` is the last publish, kept when the flow is unpublished).
   */
  async findHeader(flowId: string): Promise<{ id: string; createdAt: string; updatedAt: string } | undefined> {
    const rows = await this.db.query<{ id: string; created_at: unknown; updated_at: unknown }>(
      `SELECT id, created_at, updated_at FROM ${this.t.publishedFlows} WHERE flow_id = $1`,
      [flowId],
    )
    return rows[0] && { id: rows[0].id, createdAt: isoTimestamp(rows[0].created_at), updatedAt: isoTimestamp(rows[0].updated_at) }
  }

  /**
   * Takes the flow's live version away: new conversations and published reads find none, while
   * conversations under way go on with the version they started on (kept). False when the flow
   * was not published.
   */
  async unpublish(flowId: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE ${this.t.publishedFlows} SET current_version_id = NULL
       WHERE flow_id = $1 AND current_version_id IS NOT NULL RETURNING id`,
      [flowId],
    )
    return rows.length > 0
  }

  /**
   * Stores `snapshot` as the flow's next version and makes it the current one. The caller holds
   * the flow's row lock, so numbers are taken one publish at a time (the unique index backs it).
   */
  async publish(
    input: {
      publishedFlowId: string
      flowId: string
      versionId: string
      snapshot: PublishedFlow
      createdAt: string
      publishedAt: string
    } & VersionSignature,
  ): Promise<PublishedVersion> {
    await this.db.query(
      `INSERT INTO ${this.t.publishedFlows} (id, flow_id, current_version_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (flow_id) DO UPDATE SET current_version_id = $3, updated_at = $5`,
      [input.publishedFlowId, input.flowId, input.versionId, input.createdAt, input.publishedAt],
    )
    const rows = await this.db.query<{ number: number }>(
      `INSERT INTO ${this.t.publishedFlowVersions} (id, published_flow_id, snapshot, published_at, number, published_by, note, restored_from)
       SELECT $1, $2, $3::jsonb, $4, COALESCE(MAX(number), 0) + 1, $5, $6, $7
       FROM ${this.t.publishedFlowVersions} WHERE published_flow_id = $2
       RETURNING number`,
      [
        input.versionId,
        input.publishedFlowId,
        JSON.stringify(input.snapshot),
        input.publishedAt,
        input.publishedBy,
        input.note,
        input.restoredFrom,
      ],
    )
    return {
      versionId: input.versionId,
      publishedFlowId: input.publishedFlowId,
      flowId: input.flowId,
      number: Number(rows[0]?.number),
      snapshot: input.snapshot,
      publishedAt: input.publishedAt,
      publishedBy: input.publishedBy,
      note: input.note,
      restoredFrom: input.restoredFrom,
    }
  }

  async findCurrent(flowId: string): Promise<PublishedVersion | undefined> {
    const rows = await this.db.query<VersionRow>(
      `SELECT ${HEADER_COLUMNS}, v.snapshot
       FROM ${this.t.publishedFlows} p
       JOIN ${this.t.publishedFlowVersions} v ON v.id = p.current_version_id
       WHERE p.flow_id = $1`,
      [flowId],
    )
    return rows[0] && toVersion(rows[0])
  }

  /** A flow's versions, newest first, without their snapshots, and which one is live (none when unpublished). */
  async listVersions(flowId: string): Promise<{ versions: VersionHeader[]; currentVersionId: string | null }> {
    const rows = await this.db.query<HeaderRow & { current_version_id: string | null }>(
      `SELECT ${HEADER_COLUMNS}, p.current_version_id
       FROM ${this.t.publishedFlows} p
       JOIN ${this.t.publishedFlowVersions} v ON v.published_flow_id = p.id
       WHERE p.flow_id = $1
       ORDER BY v.number DESC`,
      [flowId],
    )
    return { versions: rows.map(toHeader), currentVersionId: rows[0]?.current_version_id ?? null }
  }

  /** One version of a flow by its number, with its snapshot. */
  async findByNumber(flowId: string, number: number): Promise<PublishedVersion | undefined> {
    const rows = await this.db.query<VersionRow>(
      `SELECT ${HEADER_COLUMNS}, v.snapshot
       FROM ${this.t.publishedFlows} p
       JOIN ${this.t.publishedFlowVersions} v ON v.published_flow_id = p.id
       WHERE p.flow_id = $1 AND v.number = $2`,
      [flowId, number],
    )
    return rows[0] && toVersion(rows[0])
  }

  /**
   * Deletes the flow's versions older than its newest `keep`, except the live one and any a
   * session still runs on (its own, or a linked flow's named in its state). Answers the numbers
   * deleted.
   */
  async prune(flowId: string, keep: number): Promise<number[]> {
    const rows = await this.db.query<{ number: number }>(
      `DELETE FROM ${this.t.publishedFlowVersions} v
       USING ${this.t.publishedFlows} p
       WHERE v.published_flow_id = p.id AND p.flow_id = $1
         AND v.id IS DISTINCT FROM p.current_version_id
         AND v.number <= (SELECT MAX(number) FROM ${this.t.publishedFlowVersions} WHERE published_flow_id = p.id) - $2
         AND NOT EXISTS (SELECT 1 FROM ${this.t.sessions} s WHERE s.published_version_id = v.id)
         AND NOT EXISTS (SELECT 1 FROM ${this.t.sessions} s WHERE s.state::text LIKE '%"' || v.id || '"%')
       RETURNING v.number`,
      [flowId, keep],
    )
    return rows.map((row) => Number(row.number)).sort((a, b) => a - b)
  }

  /**
   * One version with its snapshot as stored text (not parsed): the version cache parses it once
   * and knows its size.
   */
  async findVersionText(versionId: string): Promise<(VersionHeader & { snapshotText: string }) | undefined> {
    const rows = await this.db.query<HeaderRow & { snapshot_text: string }>(
      `SELECT ${HEADER_COLUMNS}, v.snapshot::text AS snapshot_text
       FROM ${this.t.publishedFlowVersions} v
       JOIN ${this.t.publishedFlows} p ON p.id = v.published_flow_id
       WHERE v.id = $1`,
      [versionId],
    )
    const row = rows[0]
    return row && { ...toHeader(row), snapshotText: row.snapshot_text }
  }

  /**
   * Blocks of the given types and the variables of every version ever published of a flow (the
   * ones results were collected with), each once, from the newest version having it, with its
   * position there: only these small fields leave the database, whatever the snapshots weigh.
   */
  async blocksAndVariablesOfVersions(flowId: string, blockTypes: readonly string[]): Promise<VersionColumnRow[]> {
    const list = (value: string) => `jsonb_array_elements(CASE WHEN jsonb_typeof(${value}) = 'array' THEN ${value} ELSE '[]' END)`
    return this.db.query<VersionColumnRow>(
      `WITH v AS (
         SELECT v.snapshot, v.published_at FROM ${this.t.publishedFlowVersions} v
         JOIN ${this.t.publishedFlows} p ON p.id = v.published_flow_id WHERE p.flow_id = $1),
       blocks AS (
         SELECT DISTINCT ON (b.item ->> 'id') 'block' AS kind, b.item ->> 'id' AS id, b.item ->> 'type' AS type,
                g.item ->> 'id' AS group_id, g.item ->> 'title' AS title, b.item -> 'options' ->> 'variableId' AS variable_id,
                v.published_at, g.n AS group_n, b.n AS item_n
         FROM v, ${list("v.snapshot -> 'groups'")} WITH ORDINALITY AS g(item, n),
              ${list("g.item -> 'blocks'")} WITH ORDINALITY AS b(item, n)
         WHERE b.item ->> 'type' = ANY($2::text[]) AND b.item ->> 'id' IS NOT NULL
         ORDER BY b.item ->> 'id', v.published_at DESC),
       variables AS (
         SELECT DISTINCT ON (x.item ->> 'id') 'variable' AS kind, x.item ->> 'id' AS id, NULL AS type, NULL AS group_id,
                x.item ->> 'name' AS title, NULL AS variable_id, v.published_at, 0::bigint AS group_n, x.n AS item_n
         FROM v, ${list("v.snapshot -> 'variables'")} WITH ORDINALITY AS x(item, n)
         WHERE x.item ->> 'id' IS NOT NULL
         ORDER BY x.item ->> 'id', v.published_at DESC)
       SELECT kind, id, type, group_id, title, variable_id FROM (SELECT * FROM blocks UNION ALL SELECT * FROM variables) all_items
       ORDER BY published_at DESC, group_n, item_n`,
      [flowId, blockTypes],
    )
  }
}

/** An input block (`kind` block: its group's id and title, the variable it saves to) or a variable (`title`: its name). */
export interface VersionColumnRow {
  kind: 'block' | 'variable'
  id: string
  type: string | null
  group_id: string | null
  title: string | null
  variable_id: string | null
}
