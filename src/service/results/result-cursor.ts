import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { RESULTS_LIMITS } from '../../protocol/results'
import { HttpError } from '../http/errors'
import type { ResultFilters, ResultPosition } from '../store/results-repository'

/**
 * Cursors of results pages: opaque to callers, and tamper-evident. A cursor holds the position
 * the next page starts after, the flow and filters it was made for and when, signed with
 * HMAC-SHA256 under a key derived from the credentials key (so every process sharing the
 * database accepts the others' cursors). A cursor changed or made up, made for another flow or
 * other filters, or older than a day is refused (400 `invalid_query`), never followed.
 */

export interface CursorScope {
  flowId: string
  filters: ResultFilters
}

const VERSION = 1
const MAC_BYTES = 16
const MAX_CURSOR_LENGTH = 512

export class ResultCursors {
  constructor(
    private readonly key: Buffer,
    private readonly now: () => Date,
    private readonly maxAgeMs: number = RESULTS_LIMITS.cursorMaxAgeMs,
  ) {}

  make(scope: CursorScope, position: ResultPosition): string {
    const issuedAt = Math.floor(this.now().getTime() / 1000)
    const payload = Buffer.from(
      JSON.stringify([VERSION, scope.flowId, filtersDigest(scope.filters), Date.parse(position.createdAt), position.id, issuedAt]),
    )
    return `${payload.toString('base64url')}.${this.mac(payload).toString('base64url')}`
  }

  /** The position a cursor names, once it is shown to be this service's, for this scope, and recent. */
  read(cursor: string, scope: CursorScope): ResultPosition {
    const [encoded, mac, extra] = cursor.length <= MAX_CURSOR_LENGTH ? cursor.split('.') : []
    const payload = encoded ? Buffer.from(encoded, 'base64url') : undefined
    const given = mac ? Buffer.from(mac, 'base64url') : undefined
    if (!payload || !given || extra !== undefined || given.length !== MAC_BYTES || !timingSafeEqual(given, this.mac(payload))) {
      throw invalidCursor('This cursor was not made by this service, or was changed: start again from the first page.')
    }
    const [version, flowId, digest, createdAtMs, id, issuedAt] = JSON.parse(payload.toString('utf8')) as unknown[]
    if (version !== VERSION || typeof createdAtMs !== 'number' || typeof id !== 'string' || typeof issuedAt !== 'number') {
      throw invalidCursor('This cursor is of a form this service no longer reads: start again from the first page.')
    }
    if (flowId !== scope.flowId) throw invalidCursor("This cursor belongs to another flow's results.")
    if (digest !== filtersDigest(scope.filters)) {
      throw invalidCursor('This cursor was made for other filters: send the filters of the page it came with.')
    }
    const age = this.now().getTime() - issuedAt * 1000
    if (age > this.maxAgeMs || age < -60_000) throw invalidCursor('This cursor has expired: start again from the first page.')
    return { createdAt: new Date(createdAtMs).toISOString(), id }
  }

  private mac(payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, MAC_BYTES)
  }
}

function filtersDigest(filters: ResultFilters): string {
  const canonical = JSON.stringify([
    filters.completed ?? null,
    filters.from ?? null,
    filters.to ?? null,
    filters.text ?? null,
    filters.userId ?? null,
  ])
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16)
}

function invalidCursor(message: string): HttpError {
  return new HttpError('invalid_query', message, [{ path: 'cursor', message }])
}
