import { createStepContext } from '../engine/core/step-context'
import { EngineError } from '../engine/core/engine-error'
import type { SessionState, StepContext, StepOutcome } from '../engine/core/types'
import { HttpError } from '../http/errors'
import type { TurnLookup } from '../store/chat-steps-repository'
import type { StepWrite } from '../store/step-writes'
import type { ChatDeps, ResponseJson } from './chat-service'
import { httpErrorOf } from './engine-errors'
import { checkSession, sessionNotFound } from './session-check'
import { workspaceFlowLoader } from './linked-flows-loader'
import { liveFlow } from '../flows/live-flow'
import type { CachedVersion } from '../flows/published-versions'
import { keepLease, newLeaseOwner, waitForLease } from './session-leases'

/**
 * One step of a running session, whatever asks for it (a visitor's answer, an outside system's
 * webhook): take the session's lease, run the flow with no transaction open, commit in one
 * statement while the lease still holds.
 */

/** One step's work on a leased session: the engine call, outside any transaction. */
export type StepRun = (input: { version: CachedVersion; state: SessionState; context: StepContext }) => Promise<StepOutcome>

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
  checkSession({ id: session.id, ...leased }, (await liveFlow(deps.versions, session, 'session')).refusal, now)
  // Keep running the version the session started on, even if the flow was re-published since.
  const version = (await deps.versions.get(session.publishedVersionId)) as CachedVersion
  const lease = keepLease(deps.steps, session.id, input.owner, deps.lease.leaseMs)
  let outcome: StepOutcome
  try {
    const ids = { workspaceId: session.workspaceId, flowId: session.flowId, sessionId: session.id, resultId: session.resultId }
    outcome = await input.run({ version, state: leased.state as SessionState, context: stepContext(deps, ids) })
  } catch (error) {
    // The engine's refusals, as the contract's HTTP errors (one table, engine-errors.ts).
    throw error instanceof EngineError ? httpErrorOf(error) : error
  } finally {
    lease.stop()
  }
  if (lease.lost) return undefined

  const response = JSON.stringify(outcome.response)
  const committed = await deps.steps.commitAnswer({
    sessionId: session.id,
    leaseOwner: input.owner,
    ...stepWrite(outcome, now, deps.sessionTtlSeconds),
    idempotency:
      input.idempotencyKey === undefined ? undefined : { key: input.idempotencyKey, requestHash: input.requestHash, response },
  })
  if (!committed) return undefined
  input.turn.leased = undefined // released by the commit
  return response
}

/** What a step of this session may use: its workspace's flows, the guarded HTTP client, its mailer. */
export function stepContext(deps: ChatDeps, ids: { workspaceId: string; flowId: string; sessionId: string; resultId: string }) {
  const { integrations, store } = deps
  return createStepContext({
    ...ids,
    now: deps.now,
    sandbox: deps.sandbox,
    flows: workspaceFlowLoader(store, ids.workspaceId, deps.versions),
    http: integrations.outbound.forStep(ids.workspaceId),
    mail: (request) => integrations.mailer.send({ ...request, workspaceId: ids.workspaceId, flowId: ids.flowId, resultId: ids.resultId }),
    resultAnswers: () => store.results.listAnswers(ids.resultId),
    ai: integrations.ai.forWorkspace(ids.workspaceId),
  })
}

/** What a step writes, from the engine's outcome. */
export function stepWrite(outcome: StepOutcome, now: Date, sessionTtlSeconds: number): StepWrite {
  return {
    stateJson: JSON.stringify(outcome.state),
    answers: outcome.answers,
    linkedResults: outcome.linkedResults ?? [],
    logs: outcome.logs,
    ended: outcome.ended,
    timestamp: now.toISOString(),
    expiresAt: expiry(now, sessionTtlSeconds),
  }
}

function expiry(now: Date, ttlSeconds: number): string {
  return new Date(now.getTime() + ttlSeconds * 1000).toISOString()
}
