import type { ChatReplyMessage, ChatStepResult, StartChatRequest, StartChatResponse } from '../../protocol/index'
import {
  type Engine,
  InvalidReplyError,
  SessionEndedError,
  type StepContext,
  type StepOutcome,
  UnknownCommandError,
  WaitingForWebhookError,
} from '../engine/types'
import { HttpError } from '../http/errors'
import { newId, sha256 } from '../ids'
import type { Integrations } from '../integrations'
import type { FlowRecord } from '../store/flows-repository'
import type { PublishedVersion } from '../store/published-flows-repository'
import type { ResultRecord } from '../store/results-repository'
import type { SessionRecord } from '../store/sessions-repository'
import type { Repositories, Store } from '../store/store'
import { recordLinkedResults, workspaceFlowLoader } from './linked-flows-loader'
import type { SessionQueue } from './session-queue'

/**
 * Starting and advancing chats. The engine computes; this module decides what is allowed and
 * persists the engine's outcome (session state, answers, result variables, logs and the
 * idempotent response) in one transaction, so a crash never leaves half a step behind.
 *
 * The flow runs outside any transaction: its blocks may wait on remote servers (HTTP requests,
 * e-mail) for up to two minutes, which must hold neither a database connection nor a row lock.
 * A step commits only if its session did not move on meanwhile (another process answered);
 * otherwise it runs again on the new state. Steps of one session in this process queue up.
 */

export interface ChatDeps {
  store: Store
  engine: Engine
  now: () => Date
  sessionTtlSeconds: number
  integrations: Integrations
  sessions: SessionQueue
}

/** Times a step runs again when another process moved its session on before it could commit. */
const MAX_STEP_ATTEMPTS = 3

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
  const resultId = resumed?.id ?? newId()
  const outcome = await deps.engine.start(
    published.snapshot,
    {
      prefilledVariables: input.request.prefilledVariables ?? undefined,
      restoredVariables: resumed?.variables,
    },
    stepContext(deps, { workspaceId: flow.workspaceId, flowId: flow.id, resultId }),
  )

  const now = deps.now()
  const timestamp = now.toISOString()
  const sessionId = newId()
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
  input: { sessionId: string; message: ChatReplyMessage; idempotencyKey?: string },
): Promise<ChatStepResult> {
  const requestHash = sha256(typeof input.message === 'string' ? input.message : JSON.stringify(input.message))
  const idempotency = input.idempotencyKey === undefined ? undefined : { key: input.idempotencyKey, requestHash }
  return advanceSession(deps, input.sessionId, idempotency, async ({ version, session, context }) => {
    try {
      return await deps.engine.continue(version.snapshot, session.state, input.message, context)
    } catch (error) {
      if (error instanceof SessionEndedError) throw sessionEnded()
      if (error instanceof UnknownCommandError) {
        throw new HttpError('invalid_body', error.message, [{ path: 'message.command', message: 'Unknown command' }])
      }
      if (error instanceof InvalidReplyError) throw new HttpError('invalid_body', error.message, [{ path: 'message', message: error.message }])
      if (error instanceof WaitingForWebhookError) throw new HttpError('conflict', error.message)
      throw error
    }
  })
}

export interface SessionStep {
  session: SessionRecord
  flow: FlowRecord
  version: PublishedVersion
  context: StepContext
}

/**
 * Runs one step of a session and commits it: `run` computes the outcome outside any transaction,
 * the commit happens only if the session is still where `run` found it, else `run` goes again on
 * the new state. With `idempotency`, a step already committed under that key answers again.
 */
export async function advanceSession(
  deps: ChatDeps,
  sessionId: string,
  idempotency: { key: string; requestHash: string } | undefined,
  run: (step: SessionStep) => Promise<StepOutcome>,
): Promise<ChatStepResult> {
  return deps.sessions.run(sessionId, async () => {
    for (let attempt = 1; ; attempt++) {
      const session = await deps.store.sessions.findById(sessionId)
      if (!session) throw sessionNotFound(sessionId)
      const replay = idempotency && (await replayed(deps.store, session.id, idempotency))
      if (replay) return replay
      const flow = (await deps.store.flows.findById(session.flowId)) as FlowRecord
      const now = deps.now()
      if (flow.isClosed) throw flowClosed()
      if (session.completedAt !== null) throw sessionEnded()
      if (now.getTime() >= Date.parse(session.expiresAt)) {
        throw new HttpError('session_expired', 'This chat session expired after a period of inactivity; start a new chat.')
      }
      // Keep running the version the session started on, even if the flow was re-published since.
      const version = (await deps.store.publishedFlows.findVersion(session.publishedVersionId)) as PublishedVersion
      const context = stepContext(deps, { workspaceId: flow.workspaceId, flowId: flow.id, resultId: session.resultId })
      const outcome = await run({ session, flow, version, context })
      const committed = await commitStep(deps, session, outcome, idempotency)
      if (committed) return outcome.response
      if (attempt >= MAX_STEP_ATTEMPTS) {
        throw new HttpError('conflict', 'This conversation moved on meanwhile; send the answer again.')
      }
    }
  })
}

/** Writes the step if the session is still at `seen.step`; false when it moved on meanwhile. */
async function commitStep(
  deps: ChatDeps,
  seen: SessionRecord,
  outcome: StepOutcome,
  idempotency: { key: string; requestHash: string } | undefined,
): Promise<boolean> {
  const now = deps.now()
  const timestamp = now.toISOString()
  return deps.store.transaction(async (tx) => {
    // The row lock serialises the commits of concurrent steps until this transaction ends.
    const current = await tx.sessions.findById(seen.id, { lock: true })
    if (!current || current.step !== seen.step) return false
    await tx.sessions.update(seen.id, {
      state: outcome.state,
      step: seen.step + 1,
      lastActivityAt: timestamp,
      expiresAt: expiry(now, deps.sessionTtlSeconds),
      completedAt: outcome.ended ? timestamp : null,
    })
    await recordOutcome(tx, { resultId: seen.resultId, sessionId: seen.id, outcome, timestamp })
    if (idempotency) {
      await tx.sessions.saveIdempotentResponse({ sessionId: seen.id, ...idempotency, response: outcome.response, createdAt: timestamp })
    }
    return true
  })
}

async function replayed(
  store: Store,
  sessionId: string,
  idempotency: { key: string; requestHash: string },
): Promise<ChatStepResult | undefined> {
  const stored = await store.sessions.findIdempotentResponse(sessionId, idempotency.key)
  if (!stored) return undefined
  if (stored.requestHash !== idempotency.requestHash) {
    throw new HttpError('conflict', 'This Idempotency-Key was already used with a different message.')
  }
  return stored.response as ChatStepResult
}

/** What a step of this session may use: its workspace's flows, credentials, mail and the guard. */
function stepContext(deps: ChatDeps, ids: { workspaceId: string; flowId: string; resultId: string }): StepContext {
  const { store, integrations } = deps
  return {
    resultId: ids.resultId,
    flows: workspaceFlowLoader(store, ids.workspaceId),
    now: deps.now,
    http: integrations.outbound,
    mail: (request) => integrations.mailer.send({ ...request, workspaceId: ids.workspaceId, flowId: ids.flowId, resultId: ids.resultId }),
    resultAnswers: () => store.results.listAnswers(ids.resultId),
  }
}

async function recordOutcome(
  tx: Repositories,
  input: { resultId: string; sessionId: string; outcome: StepOutcome; timestamp: string },
): Promise<void> {
  const ownAnswers = input.outcome.answers.filter((answer) => answer.resultId === undefined)
  await tx.results.addAnswers(input.resultId, input.sessionId, ownAnswers, input.timestamp)
  await tx.resultLogs.add(input.resultId, input.sessionId, input.outcome.logs, input.timestamp)
  await tx.results.update(input.resultId, {
    variables: input.outcome.state.variables,
    isCompleted: input.outcome.ended,
    updatedAt: input.timestamp,
  })
  await recordLinkedResults(tx, input)
}

function expiry(now: Date, ttlSeconds: number): string {
  return new Date(now.getTime() + ttlSeconds * 1000).toISOString()
}

function sessionEnded(): HttpError {
  return new HttpError('session_expired', 'This conversation has ended; start a new chat to talk again.')
}

function flowClosed(): HttpError {
  return new HttpError('flow_closed', 'This flow is closed and no longer accepts answers.')
}

export function sessionNotFound(sessionId: string): HttpError {
  return new HttpError('session_not_found', `No chat session with id ${sessionId}.`)
}
