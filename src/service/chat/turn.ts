import type { SessionState, StepOutcome } from '../engine/core/types'
import { type FlowStanding, type LiveFlow, liveFlow } from '../flows/live-flow'
import type { CachedVersion } from '../flows/published-versions'
import { HttpError } from '../http/errors'
import type { RequestContext } from '../observability/request-context'
import type { TurnLookup } from '../store/chat-steps-repository'
import type { ChatDeps, ResponseJson } from './chat-deps'
import { type ChatGate, verdict } from './chat-gate'
import { requestHash, runChatStep, type StepRequest, stepContext, stepWrite } from './chat-step'
import { checkSession, sessionNotFound } from './session-check'
import { keepLease, newLeaseOwner, waitForLease } from './session-leases'

/**
 * A turn: one request's hold on one running session, from its first read to its answer, for a
 * visitor's message or an outside system's webhook. The route's gate opens it (one statement reads
 * the session with its flow, takes the request's rate-limit token and the session's lease, and
 * finds any response stored under the request's idempotency key) and rules on it (chat-gate.ts),
 * the route reads the body and `advance`s it (the step runs with no transaction open and commits
 * in one statement while the lease holds), and the gate `close`s it. Requests for one session in
 * this process wait for each other's turns, in order; across processes the lease decides. The
 * flow's live version is asked for once per read: the gate's origins and the step's refusal
 * (closed, archived) come from the same answer.
 */
export class SessionTurn implements ChatGate {
  readonly allowedOrigins: string[]
  readonly rateLimited: HttpError | undefined
  readonly found: boolean
  readonly workspaceId: string | undefined

  private constructor(
    private readonly deps: ChatDeps,
    private readonly input: TurnInput,
    private readonly owner: string,
    private lookup: TurnLookup,
    private live: LiveFlow<FlowStanding>,
    private readonly leave: () => void,
  ) {
    const gate = verdict(deps, live, lookup.rateLimit, lookup.session?.workspaceId, this.notFound)
    this.allowedOrigins = gate.allowedOrigins
    this.rateLimited = gate.rateLimited
    this.found = gate.found
    this.workspaceId = gate.workspaceId
  }

  static async open(deps: ChatDeps, input: TurnInput): Promise<SessionTurn> {
    const leave = await deps.turns.enter(input.sessionId)
    try {
      const owner = newLeaseOwner()
      const lookup = await read(deps, input, owner, true)
      return new SessionTurn(deps, input, owner, lookup, await liveFlow(deps.versions, lookup.session, 'session'), leave)
    } catch (error) {
      leave()
      throw error
    }
  }

  readonly notFound = () => sessionNotFound(this.input.sessionId || '(invalid id)')

  /**
   * The step's response: the one stored under the idempotency key, or the step run now and
   * committed. Waits for a lease another request holds; takes the turn again, once, when the
   * lease was lost while the flow ran (nothing was written then).
   */
  async advance(request: StepRequest): Promise<ResponseJson> {
    if (!this.lookup.session) throw this.notFound()
    // Only an idempotency key is bound to its request.
    const hash = this.input.idempotencyKey === undefined ? '' : requestHash(request)
    for (let attempt = 0; ; attempt++) {
      const replay = await this.storedResponse(hash)
      if (replay !== undefined) return replay
      if (!this.lookup.leased) {
        await this.reread(
          waitForLease(async () => {
            const next = await read(this.deps, this.input, this.owner, false)
            return next.leased || next.idempotent ? next : undefined
          }, this.deps.lease.waitMs),
        )
        continue
      }
      const committed = await this.step(request, hash)
      if (committed !== undefined) return committed
      // This process stalled past the lease's expiry and another request took the session over.
      if (attempt > 0) throw new HttpError('conflict', 'This conversation moved on meanwhile; send the answer again.')
      await this.reread(read(this.deps, this.input, this.owner, false))
    }
  }

  /** Takes a later read of the session, and the flow's standing as that read found it. */
  private async reread(reading: Promise<TurnLookup>): Promise<void> {
    this.lookup = await reading
    this.live = await liveFlow(this.deps.versions, this.lookup.session, 'session')
  }

  /** Releases the lease if the turn still holds it, and lets the session's next request go. */
  async close(): Promise<void> {
    try {
      if (this.lookup.leased) await this.deps.store.chatSteps.releaseLease(this.input.sessionId, this.owner).catch(() => undefined)
    } finally {
      this.leave()
    }
  }

  /** The stored response for this key (same request), a 409 for another request, or undefined. */
  private async storedResponse(hash: string): Promise<ResponseJson | undefined> {
    const key = this.input.idempotencyKey
    if (key === undefined) return undefined
    // A commit landed between the statement's snapshot and its lease: its key may be the same.
    const { lookup } = this
    const stored = lookup.movedMeanwhile
      ? await this.deps.store.chatSteps.findIdempotentResponse(lookup.session!.id, key)
      : lookup.idempotent
    if (!stored) return undefined
    if (stored.requestHash !== hash) throw new HttpError('conflict', 'This Idempotency-Key was already used with a different message.')
    return stored.response
  }

  /** Runs the step on the leased session and commits it; undefined when the lease was lost meanwhile. */
  private async step(request: StepRequest, hash: string): Promise<ResponseJson | undefined> {
    const { deps, owner } = this
    const session = this.lookup.session!
    const leased = this.lookup.leased!
    const now = deps.now()
    checkSession({ id: session.id, ...leased }, this.live.refusal, now)
    const version = (await deps.versions.get(session.publishedVersionId)) as CachedVersion
    const ids = { workspaceId: session.workspaceId, flowId: session.flowId, sessionId: session.id, resultId: session.resultId }
    const lease = keepLease(deps.store.chatSteps, session.id, owner, deps.lease.leaseMs)
    let outcome: StepOutcome
    try {
      outcome = await runChatStep(
        deps,
        {
          sessionId: session.id,
          version,
          state: leased.state as SessionState,
          context: stepContext(deps, ids, this.input.request),
          base: this.input.request?.base,
        },
        request,
      )
    } finally {
      lease.stop()
    }
    if (lease.lost) return undefined

    const response = JSON.stringify(outcome.response)
    const key = this.input.idempotencyKey
    const committed = await deps.store.chatSteps.commitAnswer({
      sessionId: session.id,
      leaseOwner: owner,
      response,
      ...stepWrite(outcome, now, deps.sessionTtlSeconds),
      idempotency: key === undefined ? undefined : { key, requestHash: hash, response },
    })
    if (!committed) return undefined
    this.lookup.leased = undefined // released by the commit
    return response
  }
}

/** The request a turn is for: its session, the client's rate-limit bucket and idempotency key. */
interface TurnInput {
  sessionId: string
  /** None for an outside system's webhook (its token was limited already). */
  rateKey?: string
  idempotencyKey?: string
  /** The HTTP request the turn answers, for the lines the step writes. */
  request?: RequestContext
}

/** The turn's one read; the rate limit is taken by the first read only. */
function read(deps: ChatDeps, input: TurnInput, owner: string, withRateLimit: boolean): Promise<TurnLookup> {
  const { rateKey } = input
  return deps.store.chatSteps.openTurn({
    sessionId: input.sessionId,
    leaseOwner: owner,
    leaseMs: deps.lease.leaseMs,
    idempotencyKey: input.idempotencyKey,
    rateLimit: withRateLimit && rateKey !== undefined ? (name, params) => deps.limiter.cte(name, params, rateKey) : undefined,
  })
}
