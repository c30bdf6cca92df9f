import type { PublishedFlow } from '../../protocol/index'
import type { FlowVersion, VersionDiff } from '../../protocol/management'
import { HttpError } from '../http/errors'
import type { FlowRecord } from '../store/flows-repository'
import type { PublishedVersion, VersionHeader } from '../store/published-flows-repository'
import type { Repositories, Store } from '../store/store'
import { findFlowOrThrow, type PublishInput, publishSnapshot } from './flow-service'
import { diffVersions } from './version-diff'

/**
 * A flow's published versions, shared by the HTTP routes and the command line: listed, read one
 * by one, compared, and rolled back to. A version is never changed once written; a rollback is a
 * new publish of an old version's flow (docs/decisions/2026-11-28-flow-versions.md).
 */

/** The API form of a stored version. */
export const toFlowVersion = (version: VersionHeader, liveVersionId: string | null): FlowVersion => ({
  number: version.number,
  publishedAt: version.publishedAt,
  publishedBy: version.publishedBy,
  note: version.note,
  restoredFrom: version.restoredFrom,
  isLive: version.versionId === liveVersionId,
})

export async function listVersions(repos: Pick<Repositories, 'publishedFlows'>, flow: FlowRecord): Promise<FlowVersion[]> {
  const { versions, currentVersionId } = await repos.publishedFlows.listVersions(flow.id)
  return versions.map((version) => toFlowVersion(version, currentVersionId))
}

/** One version with its flow; 404 `not_found` for a number the flow has not (or no longer) kept. */
export async function getVersion(
  repos: Pick<Repositories, 'publishedFlows'>,
  flow: FlowRecord,
  number: number,
): Promise<{ version: FlowVersion; publishedFlow: PublishedFlow }> {
  const [found, list] = await Promise.all([findVersionOrThrow(repos, flow, number), repos.publishedFlows.listVersions(flow.id)])
  return { version: toFlowVersion(found, list.currentVersionId), publishedFlow: found.snapshot }
}

/** What changed from version `from` to version `to` (either order; `from` is read as the older). */
export async function diffFlowVersions(
  repos: Pick<Repositories, 'publishedFlows'>,
  flow: FlowRecord,
  from: number,
  to: number,
): Promise<VersionDiff> {
  const [a, b, list] = await Promise.all([
    findVersionOrThrow(repos, flow, from),
    findVersionOrThrow(repos, flow, to),
    repos.publishedFlows.listVersions(flow.id),
  ])
  return {
    from: toFlowVersion(a, list.currentVersionId),
    to: toFlowVersion(b, list.currentVersionId),
    changes: diffVersions(a.snapshot, b.snapshot),
  }
}

/**
 * Publishes version `number`'s flow again as the newest version (noting where it came from), and
 * makes it the flow's content too, so the next publish starts from what visitors now get.
 * Conversations under way finish on the version they started on.
 */
export async function rollbackFlow(store: Store, input: PublishInput & { number: number }): Promise<PublishedVersion> {
  return store.transaction(async (tx) => {
    const flow = await findFlowOrThrow(tx, input.flowId, true)
    input.authorize(flow)
    const old = await findVersionOrThrow(tx, flow, input.number)
    const { groups, events, edges, variables, theme, settings, version } = old.snapshot
    const content = { ...flow.content, version, groups, events, edges, variables, theme, settings }
    const updatedAt = new Date(Math.max(input.now.getTime(), Date.parse(flow.updatedAt))).toISOString()
    const restored = await tx.flows.update(flow.id, { content, publicId: flow.publicId, isClosed: flow.isClosed, updatedAt })
    const note = input.note?.trim() || `Rollback to version ${old.number}`
    return publishSnapshot(tx, restored, { ...input, note }, { restoredFrom: old.number })
  })
}

async function findVersionOrThrow(
  repos: Pick<Repositories, 'publishedFlows'>,
  flow: FlowRecord,
  number: number,
): Promise<PublishedVersion> {
  const found = Number.isSafeInteger(number) && number > 0 ? await repos.publishedFlows.findByNumber(flow.id, number) : undefined
  if (!found) throw new HttpError('not_found', `Flow ${flow.id} has no version ${number}.`)
  return found
}

/** A version number from a path or an argument: a positive integer, else 400 naming it. */
export function parseVersionNumber(value: string | undefined, name: string): number {
  const number = value !== undefined && /^[1-9][0-9]{0,8}$/.test(value) ? Number(value) : Number.NaN
  if (Number.isNaN(number)) {
    throw new HttpError('invalid_query', `${name} must be a version number (1, 2, 3…).`, [
      { path: name, message: 'Expected a positive integer' },
    ])
  }
  return number
}
