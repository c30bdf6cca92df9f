import type { ChatStepResult, StartChatRequest, StartChatResponse } from '../../protocol/index'
import { SessionEndedError, type Engine, type SessionState, type StepOutcome } from '../engine/types'
import { HttpError } from '../http/errors'
import { newId, sha256 } from '../ids'
import type { FlowRecord } from '../store/flows-repository'
import type { PublishedVersion } from '../store/published-flows-repository'
import type { ResultRecord } from '../store/results-repository'
import type { Repositories, Store } from '../store/store'

/**
 * Starting and advancing chats. The engine computes; this module decides what is allowed and
 * persists the engine's outcome (session state, answers, result variables and the idempotent
 * response) in one transaction, so a crash never leaves half a step behind.
 */

export interface ChatDeps {
  store: Store
  engine: Engine
  now: () => Date
  sessionTtlSeconds: number
}

export async function startChat(
  deps: ChatDeps,
  input: { flow: FlowRecord; published: PublishedVersion | undefined; request: StartChatRequest },
): Promise<StartChatResponse> {
  const { store } = deps
  const { flow, published } = input
  if (flow.isClosed) throw flowClosed()
  if (!published) throw new HttpError('not_published', 'This flow has not been published yet.')

  // A result id from another flow, or one we never issued, just starts a fresh result.
  const resumed = input.request.resultId
    ? await store.results.findForFlow(input.request.resultId, flow.id)
    : undefined
  const outcome = await deps.engine.start(published.snapshot, {
    prefilledVariables: input.request.prefilledVariables ?? undefined,
    restoredVariables: resumed?.variables,
  })

  const now = deps.now()
  const timestamp = now.toISOString()
  const sessionId = newId()
  const resultId = resumed?.id ?? newId()
  await store.transaction(async (tx) => {
    if (!resumed) {
      const result: ResultRecord = {
        id: resultId,
        flowId: flow.id,
        variables: {},
        isCompleted: false,
        createdAt: timestamp,
        updatedAt: timestamp,
      }
      await tx.results.insert(result)
    }
    await tx.sessions.insert({
      id: sessionId,
      flowId: flow.id,
      resultId,
      publishedFlowId: published.publishedFlowId,
      publishedVersionId: published.versionId,
      publishedAt: published.publishedAt,
      state: outcome.state,
      step: 0,
      createdAt: timestamp,
      lastActivityAt: timestamp,
      expiresAt: expiry(now, deps.sessionTtlSeconds),
      completedAt: outcome.ended ? timestamp : null,
    })
    await recordOutcome(tx, { resultId, sessionId, outcome, timestamp })
  })

  return {
    ...outcome.response,
    sessionId,
    resultId,
    flowId: flow.id,
    publishedAt: published.publishedAt,
  }
}

export async function continueChat(
  deps: ChatDeps,
  input: { sessionId: string; message: string; idempotencyKey?: string },
): Promise<ChatStepResult> {
  const requestHash = sha256(input.message)
  return deps.store.transaction(async (tx) => {
    // The row lock serialises concurrent answers to one session until this transaction ends.
    const session = await tx.sessions.findById(input.sessionId, { lock: true })
    if (!session) throw sessionNotFound(input.sessionId)
    const flow = (await tx.flows.findById(session.flowId)) as FlowRecord

    if (input.idempotencyKey !== undefined) {
      const stored = await tx.sessions.findIdempotentResponse(session.id, input.idempotencyKey)
      if (stored) {
        if (stored.requestHash !== requestHash) {
          throw new HttpError('conflict', 'This Idempotency-Key was already used with a different message.')
        }
        return stored.response as ChatStepResult
      }
    }

    const now = deps.now()
    if (flow.isClosed) throw flowClosed()
    if (session.completedAt !== null) {
      throw new HttpError('session_expired', 'This conversation has ended; start a new chat to talk again.')
    }
    if (now.getTime() >= Date.parse(session.expiresAt)) {
      throw new HttpError(
        'session_expired',
        'This chat session expired after a period of inactivity; start a new chat.',
      )
    }

    // Keep running the version the session started on, even if the flow was re-published since.
    const version = (await tx.publishedFlows.findVersion(session.publishedVersionId)) as PublishedVersion
    let outcome: StepOutcome
    try {
      outcome = await deps.engine.continue(version.snapshot, session.state as SessionState, input.message)
    } catch (error) {
      if (error instanceof SessionEndedError) {
        throw new HttpError('session_expired', 'This conversation has ended; start a new chat to talk again.')
      }
      throw error
    }

    const timestamp = now.toISOString()
    await tx.sessions.update(session.id, {
      state: outcome.state,
      step: session.step + 1,
      lastActivityAt: timestamp,
      expiresAt: expiry(now, deps.sessionTtlSeconds),
      completedAt: outcome.ended ? timestamp : null,
    })
    await recordOutcome(tx, { resultId: session.resultId, sessionId: session.id, outcome, timestamp })
    if (input.idempotencyKey !== undefined) {
      await tx.sessions.saveIdempotentResponse({
        sessionId: session.id,
        key: input.idempotencyKey,
        requestHash,
        response: outcome.response,
        createdAt: timestamp,
      })
    }
    return outcome.response
  })
}

async function recordOutcome(
  tx: Repositories,
  input: { resultId: string; sessionId: string; outcome: StepOutcome; timestamp: string },
): Promise<void> {
  await tx.results.addAnswers(input.resultId, input.sessionId, input.outcome.answers, input.timestamp)
  await tx.results.update(input.resultId, {
    variables: input.outcome.state.variables,
    isCompleted: input.outcome.ended,
    updatedAt: input.timestamp,
  })
}

function expiry(now: Date, ttlSeconds: number): string {
  return new Date(now.getTime() + ttlSeconds * 1000).toISOString()
}

function flowClosed(): HttpError {
  return new HttpError('flow_closed', 'This flow is closed and no longer accepts answers.')
}

export function sessionNotFound(sessionId: string): HttpError {
  return new HttpError('session_not_found', `No chat session with id ${sessionId}.`)
}
