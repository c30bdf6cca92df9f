import type { ChatReplyMessage, StartChatRequest, StartChatResponse } from '../../protocol/index'
import type { SandboxPool } from '../engine/sandbox-pool'
import { createStepContext } from '../engine/step-context'
import {
  type Engine,
  InvalidReplyError,
  type SessionState,
  SessionEndedError,
  type StepContext,
  type StepOutcome,
  UnknownCommandError,
  WaitingForWebhookError,
} from '../engine/types'
import { HttpError } from '../http/errors'
import { rateLimited, type RateLimiter } from '../http/rate-limit'
import { newId, sha256 } from '../ids'
import type { Integrations } from '../integrations'
import type { ChatStepsRepository, TurnLookup } from '../store/chat-steps-repository'
import { verdictOf } from '../store/rate-limits-repository'
import type { Store } from '../store/store'
import type { CachedVersion, PublishedVersions } from './published-versions'
import { workspaceFlowLoader } from './linked-flows-loader'
import { keepLease, type LeaseTiming, type LocalQueue, newLeaseOwner, waitForLease } from './session-turns'
import type { WebhookWaits } from './webhook-waits'

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
}

/** One step's work on a leased session: the engine call, outside any transaction. */
export type StepRun = (input: { version: CachedVersion; state: SessionState; context: StepContext }) => Promise<StepOutcome>

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
    logs: outcome.logs,
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
  return advanceSession(deps, {
    sessionId: input.sessionId,
    rateKey: input.rateKey,
    idempotencyKey: input.idempotencyKey,
    admit: async (turn) => {
      const { session } = turn
      const current = session?.currentVersionId ? await deps.versions.get(session.currentVersionId) : undefined
      const message = await input.admit({
        allowedOrigins: current?.allowedOrigins ?? [],
        rateLimited: turn.rateLimit && rateLimited(verdictOf(turn.rateLimit, deps.limiter.config)),
        found: session !== undefined,
      })
      if (!session) throw sessionNotFound(input.sessionId)
      const requestHash = sha256(typeof message === 'string' ? message : JSON.stringify(message))
      const run: StepRun = async ({ version, state, context }) => {
        try {
          return await deps.engine.continue(version.snapshot, state, message, context)
        } catch (error) {
          if (error instanceof UnknownCommandError) {
            throw new HttpError('invalid_body', error.message, [{ path: 'message.command', message: 'Unknown command' }])
          }
          if (error instanceof InvalidReplyError) throw new HttpError('invalid_body', error.message, [{ path: 'message', message: error.message }])
          if (error instanceof WaitingForWebhookError) throw new HttpError('conflict', error.message)
          throw error
        }
      }
      return { requestHash, run }
    },
  })
}

/**
 * Takes the session's turn (its lease), runs `run` and commits: what every step of a running
 * session goes through, a visitor's answer or an outside system's webhook. `admit` rules on the
 * request once the session is read (origin, rate limit, existence) and says what to run.
 */
export async function advanceSession(
  deps: ChatDeps,
  input: {
    sessionId: string
    rateKey?: string
    idempotencyKey?: string
    admit: (turn: TurnLookup) => Promise<{ requestHash: string; run: StepRun }>
  },
): Promise<ResponseJson> {
  const rateKey = input.rateKey
  // Steps of one session that reach this process wait for each other here, in order.
  return deps.turns.run(input.sessionId, async () => {
    const owner = newLeaseOwner()
    const open = (withRateLimit: boolean) =>
      deps.steps.openTurn({
        sessionId: input.sessionId,
        leaseOwner: owner,
        leaseMs: deps.lease.leaseMs,
        idempotencyKey: input.idempotencyKey,
        rateLimit: withRateLimit && rateKey !== undefined ? (name, params) => deps.limiter.cte(name, params, rateKey) : undefined,
      })
    let turn = await open(true)
    try {
      const { requestHash, run } = await input.admit(turn)
      if (!turn.session) throw sessionNotFound(input.sessionId)
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
        const committed = await runStep(deps, { turn, owner, run, requestHash, idempotencyKey: input.idempotencyKey })
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
  input: { turn: TurnLookup; owner: string; run: StepRun; requestHash: string; idempotencyKey?: string },
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
    const ids = { workspaceId: session.workspaceId, flowId: session.flowId, sessionId: session.id, resultId: session.resultId }
    outcome = await input.run({ version, state: leased.state, context: stepContext(deps, ids) })
  } catch (error) {
    if (error instanceof SessionEndedError) throw sessionEnded()
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
    logs: outcome.logs,
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

/** What a step of this session may use: its workspace's flows, the guarded HTTP client, its mailer. */
function stepContext(deps: ChatDeps, ids: { workspaceId: string; flowId: string; sessionId: string; resultId: string }) {
  const { integrations, store } = deps
  return createStepContext({
    ...ids,
    now: deps.now,
    sandbox: deps.sandbox,
    flows: workspaceFlowLoader(store, ids.workspaceId, deps.versions),
    http: integrations.outbound,
    mail: (request) => integrations.mailer.send({ ...request, workspaceId: ids.workspaceId, flowId: ids.flowId, resultId: ids.resultId }),
    resultAnswers: () => store.results.listAnswers(ids.resultId),
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
