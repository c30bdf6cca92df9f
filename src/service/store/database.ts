/**
 * The storage seam: everything above it speaks plain SQL with `$n` parameters, and the same SQL
 * runs on PGlite (embedded, for development and tests) and on PostgreSQL (`pg`).
 */
export interface Queryable {
  /** Rows of the statement's result. Pass JSON values as `JSON.stringify(...)` with `$n::jsonb`. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>
}

export interface Database extends Queryable {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  /**
   * PostgreSQL's LISTEN: `onPayload` gets each notification on `channel` (sent with `pg_notify`,
   * delivered at commit, to every process listening). Notifications sent while the listening
   * connection was down are lost: `onReconnect` runs once it listens again, for the caller to
   * read what it may have missed. Resolves once listening, with the function that stops.
   */
  listen(channel: string, onPayload: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

/** Postgres error codes the service turns into client errors instead of 500s. */
export const PG_UNIQUE_VIOLATION = '23505'

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === PG_UNIQUE_VIOLATION
}
