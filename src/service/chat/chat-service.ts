import type { ChatReplyMessage, StartChatRequest, StartChatResponse } from '../../protocol/index'
import type { SandboxPool } from '../engine/sandbox/sandbox-pool'
import type { Engine } from '../engine/core/types'
import { HttpError } from '../http/errors'
import { rateLimited, type RateLimiter } from '../http/rate-limit'
import { newId, sha256 } from '../ids'
import type { Integrations } from '../integrations'
import type { ChatStepsRepository } from '../store/chat-steps-repository'
import { verdictOf } from '../store/rate-limits-repository'
import type { Store } from '../store/store'
import { findLiveFlow, flowRefused, liveFlow } from '../flows/live-flow'
import type { PublishedVersions } from '../flows/published-versions'
import { recordedCompletion, type StreamLimits } from './stream-service'
import type { LeaseTiming, LocalQueue } from './session-leases'
import { advanceSession, type StepRun, stepContext, stepWrite } from './turn'
import { sessionNotFound } from './session-check'
import type { WebhookWaits } from './webhook-waits'

export { advanceSession, sessionNotFound, type StepRun }

/**
 * Starting and advancing chats. The engine computes; this module decides what is allowed and
 * persists the engine's outcome. A step never runs inside a transaction: it reads in one
 * statement (rate limit, session and lease together), runs the flow holding only the session's
 * lease, and writes session state, answers, result, logs and idempotent response in one
 * statement. A crash mid-step writes nothing; its lease expires and the answer can be sent again.
 * Outside the transaction is where slow blocks belong: HTTP requests and e-mails may wait on
 * remote servers for up to two minutes, holding only the lease (renewed meanwhile).
 */
export interface ChatDeps {
  store: Store
  steps: ChatStepsRepository
  engine: Engine
  now: () => Date
  sessionTtlSeconds: number
  versions: PublishedVersions
  /** The chat rate limit, taken in each request's first statement. */
  limiter: RateLimiter
  turns: LocalQueue
  lease: LeaseTiming
  sandbox?: SandboxPool
  /** The guarded HTTP client and the mailer the steps' blocks use. */
  integrations: Integrations
  /** Widgets waiting for a wait-for-webhook block, woken when this process ran the step. */
  webhookWaits: WebhookWaits
  /** What one streamed AI answer may cost (see stream-service.ts). */
  streams: StreamLimits
}

/** What the route needs to decide on a request before its body is read. */
export interface ChatGate {
  /** `settings.security.allowedOrigins` of the flow's live version (empty: every origin). */
  allowedOrigins: string[]
  /** The 429 to answer when the client's bucket is empty. */
  rateLimited: HttpError | undefined
  /** The flow or session exists (and is in service) for this request. */
  found: boolean
}

/** Responses leave as JSON text: an idempotent replay returns exactly the bytes stored. */
export type ResponseJson = string

export async function startChat(
  deps: ChatDeps,
  input: { ref: string; rateKey: string; admit: (gate: ChatGate) => Promise<StartChatRequest> },
): Promise<ResponseJson> {
  const live = await findLiveFlow(deps, input.ref, 'start', {
    rateLimit: (name, params) => deps.limiter.cte(name, params, input.rateKey),
  })
  const request = await input.admit({
    allowedOrigins: live.allowedOrigins,
    rateLimited: live.rateLimit && rateLimited(verdictOf(live.rateLimit, deps.limiter.config)),
    found: live.flow !== undefined,
  })
  const { flow, version } = live
  if (live.refusal || !flow || !version) throw flowRefused(live.refusal ?? 'not_found', flowNotFound)

  // A result id from another flow, or one we never issued, just starts a fresh result.
  const resumed = request.resultId ? await deps.store.results.findForFlow(request.resultId, flow.id) : undefined
  const sessionId = newId()
  const resultId = resumed?.id ?? newId()
  const outcome = await deps.engine.start(
    version.snapshot,
    {
      prefilledVariables: request.prefilledVariables ?? undefined,
      restoredVariables: resumed?.variables,
      isStreamEnabled: request.isStreamEnabled === true,
    },
    stepContext(deps, { workspaceId: flow.workspaceId, flowId: flow.id, sessionId, resultId }),
  )

  const now = deps.now()
  await deps.steps.commitStart({
    session: {
      id: sessionId,
      flowId: flow.id,
      resultId,
      publishedFlowId: version.publishedFlowId,
      publishedVersionId: version.versionId,
      publishedAt: version.publishedAt,
    },
    newResult: !resumed,
    ...stepWrite(outcome, now, deps.sessionTtlSeconds),
  })
  const response: StartChatResponse = {
    ...outcome.response,
    sessionId,
    resultId,
    flowId: flow.id,
    publishedAt: version.publishedAt,
  }
  return JSON.stringify(response)
}

export async function continueChat(
  deps: ChatDeps,
  input: {
    sessionId: string
    rateKey: string
    idempotencyKey?: string
    /** The visitor's message; none only after a streamed AI answer. */
    admit: (gate: ChatGate) => Promise<ChatReplyMessage | undefined>
  },
): Promise<ResponseJson> {
  return advanceSession(deps, {
    sessionId: input.sessionId,
    rateKey: input.rateKey,
    idempotencyKey: input.idempotencyKey,
    admit: async (turn) => {
      const { session } = turn
      const live = await liveFlow(deps.versions, session, 'session')
      const message = await input.admit({
        allowedOrigins: live.allowedOrigins,
        rateLimited: turn.rateLimit && rateLimited(verdictOf(turn.rateLimit, deps.limiter.config)),
        found: session !== undefined,
      })
      if (!session) throw sessionNotFound(input.sessionId)
      const requestHash = sha256(typeof message === 'string' ? message : JSON.stringify(message ?? null))
      const run: StepRun = async ({ version, state, context }) => {
        const awaiting = state.awaiting
        if (awaiting?.kind === 'stream' && (message === undefined || typeof message === 'string' || message.type === 'text')) {
          // The flow goes on with what the service recorded; a client's text is never the AI's answer.
          const completion = await recordedCompletion(deps, session.id, awaiting.streamId)
          if (!completion) throw new HttpError('conflict', 'The reply is still streaming; continue once it has finished.')
          return deps.engine.resumeStream(version.snapshot, state, completion, context)
        }
        if (message === undefined) throw messageMissing()
        return deps.engine.continue(version.snapshot, state, message, context)
      }
      return { requestHash, run }
    },
  })
}

function messageMissing(): HttpError {
  return new HttpError('invalid_body', 'The body needs a message: only a streamed answer goes on without one.', [
    { path: 'message', message: 'Required' },
  ])
}

/** The origins a flow's live version allows, for a preflight (no rate limit, no lease). */
export async function allowedOriginsOfFlow(deps: ChatDeps, ref: string): Promise<string[]> {
  return (await findLiveFlow(deps, ref, 'start')).allowedOrigins
}

export async function allowedOriginsOfSession(deps: ChatDeps, sessionId: string): Promise<string[]> {
  const session = await deps.store.sessions.findById(sessionId)
  return session ? (await findLiveFlow(deps, session.flowId, 'session')).allowedOrigins : []
}

/** What startChat answers for a flow nothing is found under. */
function flowNotFound(): HttpError {
  return new HttpError('flow_not_found', 'No flow has this id or public id.')
}
