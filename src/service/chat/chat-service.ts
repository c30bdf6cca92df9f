import type { ChatReplyMessage, StartChatRequest, StartChatResponse } from '../../protocol/index'
import type { SandboxPool } from '../engine/sandbox-pool'
import { createStepContext } from '../engine/step-context'
import { SessionEndedError, UnknownCommandError, type Engine, type SessionState, type StepOutcome } from '../engine/types'
import { HttpError } from '../http/errors'
import { rateLimited, type RateLimiter } from '../http/rate-limit'
import { newId, sha256 } from '../ids'
import type { ChatStepsRepository, TurnLookup } from '../store/chat-steps-repository'
import { verdictOf } from '../store/rate-limits-repository'
import type { Store } from '../store/store'
import type { CachedVersion, PublishedVersions } from './published-versions'
import { workspaceFlowLoader } from './linked-flows-loader'
import { keepLease, type LeaseTiming, type LocalQueue, newLeaseOwner, waitForLease } from './session-turns'

/**
 * Starting and advancing chats. The engine computes; this module decides what is allowed and
 * persists the engine's outcome. A step never runs inside a transaction: it reads in one
 * statement (rate limit, session and lease together), runs the flow holding only the session's
 * lease, and writes session state, answers, result and idempotent response in one statement.
 * A crash mid-step writes nothing; its lease expires and the answer can be sent again.
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
  const opened = await deps.steps.findFlowHead(input.ref, {
    rateLimit: (name, params) => deps.limiter.cte(name, params, input.rateKey),
  })
  // An archived flow is out of service: it answers like one that never existed.
  const flow = opened.flow?.isArchived ? undefined : opened.flow
  const version = flow?.currentVersionId ? await deps.versions.get(flow.currentVersionId) : undefined
  const request = await input.admit({
    allowedOrigins: version?.allowedOrigins ?? [],
    rateLimited: opened.rateLimit && rateLimited(verdictOf(opened.rateLimit, deps.limiter.config)),
    found: flow !== undefined,
  })
  if (!flow) throw new HttpError('flow_not_found', 'No flow has this id or public id.')
  if (flow.isClosed) throw flowClosed()
  if (!version) throw new HttpError('not_published', 'This flow has not been published yet.')

  // A result id from another flow, or one we never issued, just starts a fresh result.
  const resumed = request.resultId ? await deps.store.results.findForFlow(request.resultId, flow.id) : undefined
  const sessionId = newId()
  const resultId = resumed?.id ?? newId()
  const outcome = await deps.engine.start(
    version.snapshot,
    { prefilledVariables: request.prefilledVariables ?? undefined, restoredVariables: resumed?.variables },
    stepContext(deps, { workspaceId: flow.workspaceId, flowId: flow.id, sessionId, resultId }),
  )

  const now = deps.now()
  const timestamp = now.toISOString()
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
    stateJson: JSON.stringify(outcome.state),
    answers: outcome.answers,
    linkedResults: outcome.linkedResults ?? [],
    ended: outcome.ended,
    timestamp,
    expiresAt: expiry(now, deps.sessionTtlSeconds),
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
    admit: (gate: ChatGate) => Promise<ChatReplyMessage>
  },
): Promise<ResponseJson> {
  // Answers to one session that reach this process wait for each other here, in order.
  return deps.turns.run(input.sessionId, async () => {
    const owner = newLeaseOwner()
    const open = (withRateLimit: boolean) =>
      deps.steps.openTurn({
        sessionId: input.sessionId,
        leaseOwner: owner,
        leaseMs: deps.lease.leaseMs,
        idempotencyKey: input.idempotencyKey,
        rateLimit: withRateLimit ? (name, params) => deps.limiter.cte(name, params, input.rateKey) : undefined,
      })
    let turn = await open(true)
    try {
      const { session } = turn
      const current = session?.currentVersionId ? await deps.versions.get(session.currentVersionId) : undefined
      const message = await input.admit({
        allowedOrigins: current?.allowedOrigins ?? [],
        rateLimited: turn.rateLimit && rateLimited(verdictOf(turn.rateLimit, deps.limiter.config)),
        found: session !== undefined,
      })
      if (!session) throw sessionNotFound(input.sessionId)
      const requestHash = sha256(typeof message === 'string' ? message : JSON.stringify(message))
      for (let attempt = 0; ; attempt++) {
        const replay = await idempotentReplay(deps, input.idempotencyKey, turn, requestHash)
        if (replay !== undefined) return replay
        if (!turn.leased) {
          turn = await waitForLease(async () => {
            const next = await open(false)
            return next.leased || next.idempotent ? next : undefined
          }, deps.lease.waitMs)
          continue
        }
        const committed = await runStep(deps, { turn, owner, message, requestHash, idempotencyKey: input.idempotencyKey })
        if (committed !== undefined) return committed
        // The lease was lost while the flow ran (this process stalled past its expiry and another
        // request took the session over): nothing was written; take a turn again, once.
        if (attempt > 0) throw new HttpError('conflict', 'This conversation moved on meanwhile; send the answer again.')
        turn = await open(false)
      }
    } finally {
      if (turn.leased) await deps.steps.releaseLease(input.sessionId, owner).catch(() => undefined)
    }
  })
}

/** The stored response for this key (same message), a 409 for another message, or undefined. */
async function idempotentReplay(
  deps: ChatDeps,
  key: string | undefined,
  turn: TurnLookup,
  requestHash: string,
): Promise<ResponseJson | undefined> {
  if (key === undefined) return undefined
  // A commit landed between the statement's snapshot and its lease: its key may be the same.
  const stored = turn.movedMeanwhile ? await deps.steps.findIdempotentResponse(turn.session!.id, key) : turn.idempotent
  if (!stored) return undefined
  if (stored.requestHash !== requestHash) {
    throw new HttpError('conflict', 'This Idempotency-Key was already used with a different message.')
  }
  return stored.response
}

/** Runs the flow on a leased session and commits; undefined when the lease was lost meanwhile. */
async function runStep(
  deps: ChatDeps,
  input: { turn: TurnLookup; owner: string; message: ChatReplyMessage; requestHash: string; idempotencyKey?: string },
): Promise<ResponseJson | undefined> {
  const session = input.turn.session!
  const leased = input.turn.leased!
  const now = deps.now()
  if (session.isArchived) {
    throw new HttpError('flow_closed', 'This flow is no longer available; the conversation cannot go on.')
  }
  if (session.isClosed) throw flowClosed()
  if (leased.completedAt !== null) throw sessionEnded()
  if (now.getTime() >= Date.parse(leased.expiresAt)) {
    throw new HttpError('session_expired', 'This chat session expired after a period of inactivity; start a new chat.')
  }
  // Keep running the version the session started on, even if the flow was re-published since.
  const version = (await deps.versions.get(session.publishedVersionId)) as CachedVersion
  const lease = keepLease(deps.steps, session.id, input.owner, deps.lease.leaseMs)
  let outcome: StepOutcome
  try {
    outcome = await deps.engine.continue(
      version.snapshot,
      leased.state as SessionState,
      input.message,
      stepContext(deps, { workspaceId: session.workspaceId, flowId: session.flowId, sessionId: session.id, resultId: session.resultId }),
    )
  } catch (error) {
    if (error instanceof SessionEndedError) throw sessionEnded()
    if (error instanceof UnknownCommandError) {
      throw new HttpError('invalid_body', error.message, [{ path: 'message.command', message: 'Unknown command' }])
    }
    throw error
  } finally {
    lease.stop()
  }
  if (lease.lost) return undefined

  const timestamp = now.toISOString()
  const response = JSON.stringify(outcome.response)
  const committed = await deps.steps.commitAnswer({
    sessionId: session.id,
    leaseOwner: input.owner,
    stateJson: JSON.stringify(outcome.state),
    answers: outcome.answers,
    linkedResults: outcome.linkedResults ?? [],
    ended: outcome.ended,
    timestamp,
    expiresAt: expiry(now, deps.sessionTtlSeconds),
    idempotency:
      input.idempotencyKey === undefined ? undefined : { key: input.idempotencyKey, requestHash: input.requestHash, response },
  })
  if (!committed) return undefined
  input.turn.leased = undefined // released by the commit
  return response
}

function stepContext(deps: ChatDeps, ids: { workspaceId: string; flowId: string; sessionId: string; resultId: string }) {
  return createStepContext({
    ...ids,
    now: deps.now,
    sandbox: deps.sandbox,
    flows: workspaceFlowLoader(deps.store, ids.workspaceId, deps.versions),
  })
}

/** The origins a flow's live version allows, for a preflight (no rate limit, no lease). */
export async function allowedOriginsOfFlow(deps: ChatDeps, ref: string): Promise<string[]> {
  const { flow } = await deps.steps.findFlowHead(ref)
  const versionId = flow && !flow.isArchived ? flow.currentVersionId : undefined
  return versionId ? ((await deps.versions.get(versionId))?.allowedOrigins ?? []) : []
}

export async function allowedOriginsOfSession(deps: ChatDeps, sessionId: string): Promise<string[]> {
  const session = await deps.store.sessions.findById(sessionId)
  const versionId = session && (await deps.store.publishedFlows.currentVersionId(session.flowId))
  return versionId ? ((await deps.versions.get(versionId))?.allowedOrigins ?? []) : []
}

function expiry(now: Date, ttlSeconds: number): string {
  return new Date(now.getTime() + ttlSeconds * 1000).toISOString()
}

function flowClosed(): HttpError {
  return new HttpError('flow_closed', 'This flow is closed and no longer accepts answers.')
}

function sessionEnded(): HttpError {
  return new HttpError('session_expired', 'This conversation has ended; start a new chat to talk again.')
}

export function sessionNotFound(sessionId: string): HttpError {
  return new HttpError('session_not_found', `No chat session with id ${sessionId}.`)
}
