import type { ImportFlow, PublishedFlow, UpdateFlow } from '../../protocol/index'
import { HttpError } from '../http/errors'
import { newId } from '../ids'
import { isUniqueViolation } from '../store/database'
import type { FlowRecord } from '../store/flows-repository'
import type { PublishedVersion } from '../store/published-flows-repository'
import type { Repositories, Store } from '../store/store'
import { applyContentUpdate, contentFromImport, replaceContent, toPublishedSnapshot } from './flow-document'
import { generatePublicId, PUBLIC_ID_PATTERN, RESERVED_PUBLIC_IDS } from './public-id'

/**
 * Flow management shared by the HTTP routes and the CLI. Functions throw `HttpError` for
 * anything the caller can fix; the CLI prints their messages.
 */

const PUBLIC_ID_ATTEMPTS = 5

export async function importFlow(store: Store, input: { workspaceId: string; flow: ImportFlow; now: Date }): Promise<FlowRecord> {
  const content = contentFromImport(input.flow)
  const timestamp = input.now.toISOString()
  for (let attempt = 1; ; attempt++) {
    const publicId = generatePublicId(String(content.name))
    try {
      return await store.flows.insert({
        id: newId(),
        workspaceId: input.workspaceId,
        publicId,
        content,
        isClosed: false,
        isArchived: false,
        createdAt: timestamp,
        updatedAt: timestamp,
      })
    } catch (error) {
      // A suffix collision is astronomically rare, but the unique index is the real guarantee.
      if (!isUniqueViolation(error) || attempt >= PUBLIC_ID_ATTEMPTS) throw error
    }
  }
}

export async function findFlowOrThrow(repos: Repositories, flowId: string, lock = false): Promise<FlowRecord> {
  const flow = await repos.flows.findById(flowId, { lock })
  if (!flow) throw flowNotFound(flowId)
  return flow
}

export function flowNotFound(flowId: string): HttpError {
  return new HttpError('flow_not_found', `No flow with id ${flowId}.`)
}

/**
 * Applies an update under a row lock, so two concurrent updates cannot both pass the
 * `updatedAt` check. `authorize` runs on the locked row before anything changes.
 */
export async function updateFlow(
  store: Store,
  input: { flowId: string; update: UpdateFlow; now: Date; authorize: (flow: FlowRecord) => void },
): Promise<FlowRecord> {
  const { update } = input
  if (update.publicId != null && !PUBLIC_ID_PATTERN.test(update.publicId)) {
    throw new HttpError('invalid_body', 'publicId must be a lower-case slug.', [
      {
        path: 'flow.publicId',
        message: 'Use 1–64 characters a–z, 0–9 and "-", starting and ending with a letter or digit',
      },
    ])
  }
  if (update.publicId != null && RESERVED_PUBLIC_IDS.has(update.publicId)) {
    throw new HttpError('invalid_body', `publicId "${update.publicId}" is a path of the service itself.`, [
      { path: 'flow.publicId', message: `Reserved: ${[...RESERVED_PUBLIC_IDS].join(', ')}` },
    ])
  }
  const checkedAt = update.updatedAt == null ? undefined : parseTimestamp(update.updatedAt, 'flow.updatedAt')
  return rewriteFlow(store, input, checkedAt, async (stored, tx) => {
    const publicId = update.publicId ?? stored.publicId
    if (publicId !== stored.publicId && (await tx.flows.isPublicIdTaken(publicId, stored.id))) {
      throw publicIdTaken(publicId)
    }
    const { content, clearedRequired } = applyContentUpdate(stored.content, update)
    if (clearedRequired.length > 0) {
      throw new HttpError(
        'invalid_body',
        'These fields cannot be null.',
        clearedRequired.map((field) => ({ path: `flow.${field}`, message: 'Required; cannot be null' })),
      )
    }
    return { content, publicId, isClosed: update.isClosed ?? stored.isClosed }
  }).catch((error: unknown) => {
    // Two updates racing for one public id: the unique index decides.
    if (isUniqueViolation(error) && update.publicId != null) throw publicIdTaken(update.publicId)
    throw error
  })
}

/**
 * Replaces a flow's content with an export's, keeping what makes it the same flow: its id and
 * public id (every embed and share link), its status, its published versions and its results.
 * The change reaches visitors when the flow is published. `updatedAt`, when given, is the one the
 * caller read: an older one is a conflict.
 */
export async function replaceFlow(
  store: Store,
  input: { flowId: string; flow: ImportFlow; updatedAt?: string | null; now: Date; authorize: (flow: FlowRecord) => void },
): Promise<FlowRecord> {
  const checkedAt = input.updatedAt == null ? undefined : parseTimestamp(input.updatedAt, 'updatedAt')
  return rewriteFlow(store, input, checkedAt, async (stored) => ({
    content: replaceContent(stored.content, input.flow),
    publicId: stored.publicId,
    isClosed: stored.isClosed,
  }))
}

/** A flow's stored fields rewritten under its row lock, after the caller's check and the optimistic one. */
async function rewriteFlow(
  store: Store,
  input: { flowId: string; now: Date; authorize: (flow: FlowRecord) => void },
  clientUpdatedAt: number | undefined,
  rewrite: (stored: FlowRecord, tx: Repositories) => Promise<{ content: Record<string, unknown>; publicId: string; isClosed: boolean }>,
): Promise<FlowRecord> {
  return store.transaction(async (tx) => {
    const stored = await findFlowOrThrow(tx, input.flowId, true)
    input.authorize(stored)
    if (clientUpdatedAt !== undefined && clientUpdatedAt < Date.parse(stored.updatedAt)) {
      throw new HttpError('conflict', 'The flow changed since you read it; fetch it again and reapply your edit.', {
        storedUpdatedAt: stored.updatedAt,
      })
    }
    const changes = await rewrite(stored, tx)
    // Never move updatedAt backwards, even if the clock did.
    const updatedAt = new Date(Math.max(input.now.getTime(), Date.parse(stored.updatedAt)))
    return tx.flows.update(stored.id, { ...changes, updatedAt: updatedAt.toISOString() })
  })
}

function publicIdTaken(publicId: string): HttpError {
  return new HttpError('conflict', `The public id "${publicId}" is already taken.`, {
    field: 'publicId',
  })
}

function parseTimestamp(value: string, path: string): number {
  const ms = Date.parse(value)
  if (!Number.isFinite(ms)) {
    throw new HttpError('invalid_body', 'updatedAt must be an ISO 8601 timestamp.', [
      { path, message: 'Expected a timestamp such as 2026-01-01T00:00:00.000Z' },
    ])
  }
  return ms
}

/** Who publishes, why, and how many versions the service keeps (`FLOW_VERSIONS_KEEP`; undefined: all). */
export interface PublishInput {
  flowId: string
  now: Date
  authorize: (flow: FlowRecord) => void
  /** The name of the token (or "command line") publishing. */
  publishedBy: string
  note?: string | null
  keepVersions?: number
}

/** Snapshots the flow as its new published version; the published flow's id stays stable. */
export async function publishFlow(store: Store, input: PublishInput): Promise<PublishedVersion> {
  return store.transaction(async (tx) => {
    // The lock also serialises concurrent publishes of one flow (and their version numbers).
    const flow = await findFlowOrThrow(tx, input.flowId, true)
    input.authorize(flow)
    return publishSnapshot(tx, flow, input, { restoredFrom: null })
  })
}

/**
 * Stores the flow's content as its next version, under the flow's row lock (the caller's
 * transaction), then prunes beyond `keepVersions`.
 */
export async function publishSnapshot(
  tx: Repositories,
  flow: FlowRecord,
  input: Omit<PublishInput, 'flowId' | 'authorize'>,
  origin: { restoredFrom: number | null },
): Promise<PublishedVersion> {
  const header = await tx.publishedFlows.findHeader(flow.id)
  const publishedFlowId = header?.id ?? newId()
  const createdAt = header?.createdAt ?? input.now.toISOString()
  // updatedAt must change on every publish (after an unpublish too): startChat clients
  // compare it to spot new versions.
  const previous = header ? Date.parse(header.updatedAt) : Number.NEGATIVE_INFINITY
  const updatedAt = new Date(Math.max(input.now.getTime(), previous + 1)).toISOString()
  const snapshot: PublishedFlow = toPublishedSnapshot(flow, { publishedFlowId, createdAt, updatedAt })
  const version = await tx.publishedFlows.publish({
    publishedFlowId,
    flowId: flow.id,
    versionId: newId(),
    snapshot,
    createdAt,
    publishedAt: updatedAt,
    publishedBy: input.publishedBy,
    note: input.note?.trim() || null,
    restoredFrom: origin.restoredFrom,
  })
  if (input.keepVersions !== undefined) await tx.publishedFlows.prune(flow.id, input.keepVersions)
  return version
}
