import type { AccessExport, VisitorSelectorInput } from '../../protocol/privacy'
import { fileUrl } from '../../protocol/uploads'
import { HttpError } from '../http/errors'
import { newId } from '../ids'
import { log } from '../observability/log'
import { addCounts, type HeldCounts, type HeldRows, noCounts, type VisitorSelector } from '../store/privacy-repository'
import type { Store } from '../store/store'
import { isoTimestamp, isoTimestampOrNull } from '../store/tables'
import type { Files } from '../uploads/files'

/**
 * One visitor's data, found by a selector in one workspace: counted (a dry run), erased (rows and
 * files, in batches of results) or exported (an access request). Each leaves an audit line that
 * says what and how many, by which token, and nothing of the data or of the value the visitor was
 * found by; the process's log gets the same line.
 */

/** Results one request may find: a selector matching more is too wide to be one visitor. */
export const MAX_VISITOR_RESULTS = 10_000
/** Results erased per transaction. */
const ERASE_BATCH = 500

export interface Actor {
  tokenId: string
  name: string
}

/** The API's selector, checked: exactly one of a result id, a user id, or a variable with its value. */
export function readSelector(input: VisitorSelectorInput): VisitorSelector {
  const byVariable = input.variable != null || input.value != null
  const ways = [input.resultId != null, input.userId != null, byVariable].filter(Boolean).length
  if (ways !== 1 || (byVariable && (input.variable == null || input.value == null))) {
    throw new HttpError('invalid_body', 'Name the visitor by "resultId", by "userId", or by "variable" with its "value".', [
      { path: '', message: 'Expected exactly one of resultId, userId, or variable with value' },
    ])
  }
  if (input.resultId != null) return { kind: 'result', resultId: input.resultId }
  if (input.userId != null) return { kind: 'user', userId: input.userId }
  return { kind: 'variable', variable: input.variable!, value: input.value! }
}

/** What the audit says a visitor was found by: the kind, never the value. */
export const selectorLabel = (selector: VisitorSelector) =>
  selector.kind === 'result' ? 'result id' : selector.kind === 'user' ? 'user id' : `variable ${selector.variable}`

async function findResults(store: Store, workspaceId: string, selector: VisitorSelector): Promise<string[]> {
  const ids = await store.privacy.matchingResults(workspaceId, selector, MAX_VISITOR_RESULTS + 1)
  if (ids.length > MAX_VISITOR_RESULTS) {
    throw new HttpError('invalid_body', `This selector finds more than ${MAX_VISITOR_RESULTS} results: name one visitor.`)
  }
  return ids
}

const batches = <T>(items: readonly T[], size: number) =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/** Counts (`dryRun`) or erases everything held about the visitor; the counts are the rows that go. */
export async function eraseVisitor(
  deps: { store: Store; files: Files; now: Date },
  input: { workspaceId: string; selector: VisitorSelector; dryRun: boolean; actor: Actor },
): Promise<{ resultIds: string[]; counts: HeldCounts }> {
  const { store, files } = deps
  const resultIds = await findResults(store, input.workspaceId, input.selector)
  const counts = noCounts()
  if (input.dryRun) {
    for (const batch of batches(resultIds, ERASE_BATCH)) addCounts(counts, await store.privacy.count(batch))
    return { resultIds, counts }
  }
  for (const batch of batches(resultIds, ERASE_BATCH)) addCounts(counts, await eraseResults(store, files, batch))
  await record(store, input.workspaceId, {
    action: 'erase',
    selector: selectorLabel(input.selector),
    actor: input.actor,
    counts,
    now: deps.now,
  })
  return { resultIds, counts }
}

/**
 * Deletes these results with everything they hold: their files' bytes first (a crash in between
 * leaves rows that the next erasure or retention run deletes again, never files nobody knows
 * of), then the rows in one transaction, counted just before they go. Returns the counts.
 */
export async function eraseResults(store: Store, files: Files, resultIds: readonly string[]): Promise<HeldCounts> {
  for (const key of await store.privacy.uploadKeys(resultIds)) await files.storage.delete(key)
  return store.transaction(async (tx) => {
    const counts = await tx.privacy.count(resultIds)
    await tx.privacy.deleteResults(resultIds)
    return counts
  })
}

/** Everything held about the visitor, a result at a time (files as links valid for a few minutes). */
export async function exportVisitor(
  deps: { store: Store; files: Files; now: Date; base: string },
  input: { workspaceId: string; selector: VisitorSelector; actor: Actor },
): Promise<AccessExport> {
  const { store } = deps
  const resultIds = await findResults(store, input.workspaceId, input.selector)
  const results: AccessExport['results'] = []
  const counts = noCounts()
  for (const batch of batches(resultIds, ERASE_BATCH)) {
    results.push(...shapeExport(await store.privacy.heldRows(batch), deps))
    addCounts(counts, await store.privacy.count(batch))
  }
  await record(store, input.workspaceId, {
    action: 'access',
    selector: selectorLabel(input.selector),
    actor: input.actor,
    counts,
    now: deps.now,
  })
  return { exportedAt: deps.now.toISOString(), workspaceId: input.workspaceId, results }
}

type Row = Record<string, unknown>

/** The rows grouped by result, timestamps as ISO strings, variables by their names. */
function shapeExport(rows: HeldRows, deps: { files: Files; now: Date; base: string }): AccessExport['results'] {
  const of = (kind: string, resultId: unknown) => (rows[kind] ?? []).filter((row) => row.result_id === resultId).map(withoutResultId)
  return (rows.results ?? []).map((result) => {
    const names = new Map(
      (Array.isArray(result.flow_variables) ? (result.flow_variables as Row[]) : []).map((v) => [String(v.id), String(v.name)]),
    )
    const variables = Object.entries((result.variables ?? {}) as Row).map(([id, value]) => ({ id, name: names.get(id) ?? id, value }))
    return {
      id: String(result.id),
      flow: { id: String(result.flow_id), name: String(result.flow_name ?? '') },
      version: result.version ?? null,
      isCompleted: result.is_completed === true,
      createdAt: isoTimestamp(result.created_at),
      updatedAt: isoTimestamp(result.updated_at),
      variables,
      answers: of('answers', result.id),
      sessions: of('sessions', result.id),
      logs: of('logs', result.id),
      files: of('uploads', result.id).map((file) => {
        const { expires, signature } = deps.files.signedQuery(String(file.id), deps.now)
        return { ...file, url: `${fileUrl(deps.base, String(file.id), String(file.name))}?expires=${expires}&signature=${signature}` }
      }),
      webhookDeliveries: of('deliveries', result.id),
      conversationsWithAPerson: of('handoffs', result.id).map((handoff) => ({
        ...handoff,
        events: (rows.events ?? []).filter((event) => event.handoff_id === handoff.id).map(withoutResultId),
      })),
      aiAnswers: of('aiAnswers', result.id),
      emails: of('emails', result.id),
    }
  })
}

const TIMESTAMP_COLUMNS = /(_at|^requested_at)$/

/** A row as the export shows it: camelCase keys, ISO timestamps, no result id (it is the parent's). */
function withoutResultId(row: Row): Row {
  const out: Row = {}
  for (const [key, value] of Object.entries(row)) {
    if (key === 'result_id') continue
    out[key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = TIMESTAMP_COLUMNS.test(key) ? isoTimestampOrNull(value) : value
  }
  return out
}

async function record(
  store: Store,
  workspaceId: string,
  line: { action: 'erase' | 'access'; selector: string; actor: Actor; counts: HeldCounts; now: Date },
): Promise<void> {
  await store.privacy.audit(workspaceId, {
    id: newId(),
    action: line.action,
    selector: line.selector,
    tokenId: line.actor.tokenId,
    actor: line.actor.name,
    counts: line.counts,
    createdAt: line.now.toISOString(),
  })
  log().info(
    { workspace: workspaceId, action: line.action, selector: line.selector, token: line.actor.tokenId, counts: line.counts },
    line.action === 'erase' ? "erased a visitor's data" : "exported a visitor's data",
  )
}
