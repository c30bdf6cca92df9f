import type { PublishedFlow } from '../../protocol/index'
import type { Queryable } from './database'
import { isoTimestamp, type Tables } from './tables'

/** One published version: the snapshot a chat runs on. */
export interface PublishedVersion {
  versionId: string
  publishedFlowId: string
  flowId: string
  snapshot: PublishedFlow
  /** The published flow's `updatedAt` at this version (what startChat calls `publishedAt`). */
  publishedAt: string
}

interface VersionRow {
  version_id: string
  published_flow_id: string
  flow_id: string
  snapshot: PublishedFlow
  published_at: unknown
}

const toVersion = (row: VersionRow): PublishedVersion => ({
  versionId: row.version_id,
  publishedFlowId: row.published_flow_id,
  flowId: row.flow_id,
  snapshot: row.snapshot,
  publishedAt: isoTimestamp(row.published_at),
})

export class PublishedFlowsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /** The published flow row of a flow (id and creation time stay stable across re-publishes). */
  async findHeader(flowId: string): Promise<{ id: string; createdAt: string } | undefined> {
    const rows = await this.db.query<{ id: string; created_at: unknown }>(
      `SELECT id, created_at FROM ${this.t.publishedFlows} WHERE flow_id = $1`,
      [flowId],
    )
    return rows[0] && { id: rows[0].id, createdAt: isoTimestamp(rows[0].created_at) }
  }

  /** Stores `snapshot` as a new version and makes it the current one. */
  async publish(input: {
    publishedFlowId: string
    flowId: string
    versionId: string
    snapshot: PublishedFlow
    createdAt: string
    publishedAt: string
  }): Promise<PublishedVersion> {
    await this.db.query(
      `INSERT INTO ${this.t.publishedFlows} (id, flow_id, current_version_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (flow_id) DO UPDATE SET current_version_id = $3, updated_at = $5`,
      [input.publishedFlowId, input.flowId, input.versionId, input.createdAt, input.publishedAt],
    )
    await this.db.query(
      `INSERT INTO ${this.t.publishedFlowVersions} (id, published_flow_id, snapshot, published_at)
       VALUES ($1, $2, $3::jsonb, $4)`,
      [input.versionId, input.publishedFlowId, JSON.stringify(input.snapshot), input.publishedAt],
    )
    return {
      versionId: input.versionId,
      publishedFlowId: input.publishedFlowId,
      flowId: input.flowId,
      snapshot: input.snapshot,
      publishedAt: input.publishedAt,
    }
  }

  async findCurrent(flowId: string): Promise<PublishedVersion | undefined> {
    const rows = await this.db.query<VersionRow>(
      `SELECT v.id AS version_id, p.id AS published_flow_id, p.flow_id, v.snapshot, v.published_at
       FROM ${this.t.publishedFlows} p
       JOIN ${this.t.publishedFlowVersions} v ON v.id = p.current_version_id
       WHERE p.flow_id = $1`,
      [flowId],
    )
    return rows[0] && toVersion(rows[0])
  }

  /**
   * One version with its snapshot as stored text (not parsed): the version cache parses it once
   * and knows its size.
   */
  async findVersionText(versionId: string): Promise<(Omit<PublishedVersion, 'snapshot'> & { snapshotText: string }) | undefined> {
    const rows = await this.db.query<Omit<VersionRow, 'snapshot'> & { snapshot_text: string }>(
      `SELECT v.id AS version_id, p.id AS published_flow_id, p.flow_id, v.snapshot::text AS snapshot_text, v.published_at
       FROM ${this.t.publishedFlowVersions} v
       JOIN ${this.t.publishedFlows} p ON p.id = v.published_flow_id
       WHERE v.id = $1`,
      [versionId],
    )
    const row = rows[0]
    return (
      row && {
        versionId: row.version_id,
        publishedFlowId: row.published_flow_id,
        flowId: row.flow_id,
        snapshotText: row.snapshot_text,
        publishedAt: isoTimestamp(row.published_at),
      }
    )
  }
}
