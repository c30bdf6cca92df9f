import type { Queryable } from './database'
import { isoTimestamp, isoTimestampOrNull, type Tables } from './tables'

/** A stored flow: server-owned fields as columns, everything the author edits in `content`. */
export interface FlowRecord {
  id: string
  workspaceId: string
  publicId: string
  content: Record<string, unknown>
  isClosed: boolean
  isArchived: boolean
  createdAt: string
  updatedAt: string
}

interface FlowRow {
  id: string
  workspace_id: string
  public_id: string
  content: Record<string, unknown>
  is_closed: boolean
  is_archived: boolean
  created_at: unknown
  updated_at: unknown
}

/** A flow as lists show it: its header, whether it is live, and how many results it collected. */
export interface FlowSummaryRecord {
  id: string
  workspaceId: string
  publicId: string
  name: string | null
  icon: string | null
  isClosed: boolean
  isArchived: boolean
  createdAt: string
  updatedAt: string
  /** When the live version was published; null when there is none. */
  publishedAt: string | null
  results: { total: number; completed: number }
}

const COLUMNS = 'id, workspace_id, public_id, content, is_closed, is_archived, created_at, updated_at'

const toRecord = (row: FlowRow): FlowRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  publicId: row.public_id,
  content: row.content,
  isClosed: row.is_closed,
  isArchived: row.is_archived,
  createdAt: isoTimestamp(row.created_at),
  updatedAt: isoTimestamp(row.updated_at),
})

export class FlowsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  async insert(flow: FlowRecord): Promise<FlowRecord> {
    const rows = await this.db.query<FlowRow>(
      `INSERT INTO ${this.t.flows} (${COLUMNS}) VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, $8)
       RETURNING ${COLUMNS}`,
      [
        flow.id,
        flow.workspaceId,
        flow.publicId,
        JSON.stringify(flow.content),
        flow.isClosed,
        flow.isArchived,
        flow.createdAt,
        flow.updatedAt,
      ],
    )
    return toRecord(rows[0] as FlowRow)
  }

  /** `lock` takes a row lock until the end of the surrounding transaction. */
  async findById(id: string, options: { lock?: boolean } = {}): Promise<FlowRecord | undefined> {
    const rows = await this.db.query<FlowRow>(`SELECT ${COLUMNS} FROM ${this.t.flows} WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`, [
      id,
    ])
    return rows[0] && toRecord(rows[0])
  }

  /** Public read paths accept either identifier; an exact id match wins over a public id. */
  async findByIdOrPublicId(ref: string): Promise<FlowRecord | undefined> {
    const rows = await this.db.query<FlowRow>(
      `SELECT ${COLUMNS} FROM ${this.t.flows} WHERE id = $1 OR public_id = $1
       ORDER BY (id = $1) DESC LIMIT 1`,
      [ref],
    )
    return rows[0] && toRecord(rows[0])
  }

  /** True when `publicId` is used by another flow, as its public id or as its id. */
  async isPublicIdTaken(publicId: string, exceptFlowId?: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM ${this.t.flows} WHERE (public_id = $1 OR id = $1) AND id <> $2 LIMIT 1`, [
      publicId,
      exceptFlowId ?? '',
    ])
    return rows.length > 0
  }

  async update(
    id: string,
    changes: { content: Record<string, unknown>; publicId: string; isClosed: boolean; updatedAt: string },
  ): Promise<FlowRecord> {
    const rows = await this.db.query<FlowRow>(
      `UPDATE ${this.t.flows} SET content = $2::jsonb, public_id = $3, is_closed = $4, updated_at = $5
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, JSON.stringify(changes.content), changes.publicId, changes.isClosed, changes.updatedAt],
    )
    if (!rows[0]) throw new Error(`Flow ${id} vanished during an update`)
    return toRecord(rows[0])
  }

  /** Archiving takes a flow out of service (chats, share page, published reads); its data stays. */
  async setArchived(id: string, isArchived: boolean, updatedAt: string): Promise<FlowRecord | undefined> {
    const rows = await this.db.query<FlowRow>(
      `UPDATE ${this.t.flows} SET is_archived = $2, updated_at = GREATEST(updated_at, $3::timestamptz)
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, isArchived, updatedAt],
    )
    return rows[0] && toRecord(rows[0])
  }

  async listByWorkspace(workspaceId?: string): Promise<FlowRecord[]> {
    const rows = await this.db.query<FlowRow>(
      `SELECT ${COLUMNS} FROM ${this.t.flows} WHERE $1::text IS NULL OR workspace_id = $1
       ORDER BY created_at, id`,
      [workspaceId ?? null],
    )
    return rows.map(toRecord)
  }

  /**
   * Flows with their live version's date and result counts, oldest first: a workspace's (or
   * every workspace's), or one flow (`flowId`).
   */
  async listSummaries(filter: { workspaceId?: string; flowId?: string; limit: number }): Promise<FlowSummaryRecord[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT f.id, f.workspace_id, f.public_id, f.content ->> 'name' AS name, f.content ->> 'icon' AS icon,
              f.is_closed, f.is_archived, f.created_at, f.updated_at,
              CASE WHEN p.current_version_id IS NULL THEN NULL ELSE p.updated_at END AS published_at,
              c.total, c.completed
       FROM ${this.t.flows} f
       LEFT JOIN ${this.t.publishedFlows} p ON p.flow_id = f.id
       LEFT JOIN LATERAL (
         SELECT count(*)::int AS total, (count(*) FILTER (WHERE r.is_completed))::int AS completed
         FROM ${this.t.results} r WHERE r.flow_id = f.id) c ON true
       WHERE ($1::text IS NULL OR f.workspace_id = $1) AND ($2::text IS NULL OR f.id = $2)
       ORDER BY f.created_at, f.id LIMIT $3`,
      [filter.workspaceId ?? null, filter.flowId ?? null, filter.limit],
    )
    return rows.map((row) => ({
      id: String(row.id),
      workspaceId: String(row.workspace_id),
      publicId: String(row.public_id),
      name: typeof row.name === 'string' ? row.name : null,
      icon: typeof row.icon === 'string' ? row.icon : null,
      isClosed: row.is_closed === true,
      isArchived: row.is_archived === true,
      createdAt: isoTimestamp(row.created_at),
      updatedAt: isoTimestamp(row.updated_at),
      publishedAt: isoTimestampOrNull(row.published_at),
      results: { total: Number(row.total ?? 0), completed: Number(row.completed ?? 0) },
    }))
  }
}
