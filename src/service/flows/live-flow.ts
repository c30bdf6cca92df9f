import { HttpError } from '../http/errors'
import type { FlowHead, RateLimitCte } from '../store/chat-steps-repository'
import type { VerdictRow } from '../store/rate-limits-repository'
import type { Store } from '../store/store'
import type { CachedVersion, PublishedVersions } from './published-versions'

/**
 * The live version of a flow, and whether the flow serves a request, decided here only. A new
 * conversation (a start, the share page, a link, the widget reading the published flow) needs a
 * flow that is neither archived (it is then unknown) nor closed, with a published version; a
 * running conversation goes on with the version it started on while its flow is neither archived
 * nor closed. Either way the live version's settings (its allowed origins) rule the request.
 */

/** Who asks: a new conversation, or one already running. */
export type FlowUse = 'start' | 'session'

/** Why the flow does not serve this request. */
export type FlowRefusal = 'not_found' | 'archived' | 'closed' | 'not_published'

/** What the rule reads of a flow (a flows row joined with its published flow). */
export interface FlowStanding {
  isArchived: boolean
  isClosed: boolean
  /** The live published version; undefined until the flow is first published. */
  currentVersionId: string | undefined
}

export interface LiveFlow<F extends FlowStanding = FlowHead> {
  /** The flow, unless it does not exist for this use (unknown; archived, to a new conversation). */
  flow: F | undefined
  /** Its live published version, parsed once per process; undefined when it has none. */
  version: CachedVersion | undefined
  /** `settings.security.allowedOrigins` of the live version (none: every origin). */
  allowedOrigins: string[]
  /** Why the flow does not serve this use; undefined when it does. */
  refusal: FlowRefusal | undefined
}

export async function liveFlow<F extends FlowStanding>(
  versions: PublishedVersions,
  flow: F | undefined,
  use: FlowUse,
): Promise<LiveFlow<F>> {
  const found = flow && !(use === 'start' && flow.isArchived) ? flow : undefined
  const version = found?.currentVersionId ? await versions.get(found.currentVersionId) : undefined
  return { flow: found, version, allowedOrigins: version?.allowedOrigins ?? [], refusal: refusalOf(found, version, use) }
}

function refusalOf(flow: FlowStanding | undefined, version: CachedVersion | undefined, use: FlowUse): FlowRefusal | undefined {
  if (!flow) return 'not_found'
  if (flow.isArchived) return 'archived'
  if (flow.isClosed) return 'closed'
  if (use === 'start' && !version) return 'not_published'
  return undefined
}

/**
 * The flow a reference names (its id, else its public id) with its live version, in one read;
 * with the request's rate-limit verdict when `rateLimit` is given (the same statement takes it).
 */
export async function findLiveFlow(
  deps: { store: Pick<Store, 'chatSteps'>; versions: PublishedVersions },
  ref: string,
  use: FlowUse,
  options: { rateLimit?: RateLimitCte; withName?: boolean } = {},
): Promise<LiveFlow & { rateLimit: VerdictRow | undefined }> {
  const { flow, rateLimit } = await deps.store.chatSteps.findFlowHead(ref, options)
  return { ...(await liveFlow(deps.versions, flow, use)), rateLimit }
}

/** The contract's error for a refusal; `notFound` is the request's own 404 (a flow, a session). */
export function flowRefused(refusal: FlowRefusal, notFound: () => HttpError): HttpError {
  switch (refusal) {
    case 'not_found':
      return notFound()
    case 'archived':
      return new HttpError('flow_closed', 'This flow is no longer available; the conversation cannot go on.')
    case 'closed':
      return new HttpError('flow_closed', 'This flow is closed and no longer accepts answers.')
    case 'not_published':
      return new HttpError('not_published', 'This flow has not been published yet.')
  }
}
