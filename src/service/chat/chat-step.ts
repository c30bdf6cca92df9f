import type { ChatReplyMessage } from '../../protocol/index'
import { fileUrl } from '../../protocol/uploads'
import { EngineError } from '../engine/core/engine-error'
import type { ChatCompletion, CompletionUsage } from '../engine/core/ports'
import { createStepContext } from '../engine/core/step-context'
import type { HandoffResume, SessionState, StepContext, StepOutcome } from '../engine/core/types'
import type { CachedVersion } from '../flows/published-versions'
import { HttpError } from '../http/errors'
import { newId, sha256 } from '../ids'
import { countingMetrics, metrics } from '../observability/metrics'
import { type RequestContext, requestLogger } from '../observability/request-context'
import type { StepWrite } from '../store/step-writes'
import { awaitedInput } from './awaited-input'
import type { ChatDeps } from './chat-deps'
import { httpErrorOf } from './engine-errors'
import { workspaceFlowLoader } from './linked-flows-loader'

/**
 * A chat step as the service runs it: what it may use (its step context), what it asks the engine
 * for, and what it writes. The engine runs with no transaction open; the turn (turn.ts) holds the
 * session's lease meanwhile and commits what this returns.
 */

/** What asks a running session for a step: a visitor's message, an outside system's webhook, a handoff's end. */
export type StepRequest =
  /** No message only after a streamed AI answer: the flow goes on with the recorded one. */
  | { kind: 'message'; message: ChatReplyMessage | undefined }
  | { kind: 'webhook'; waitId: string; body: unknown }
  /** The conversation a person had came back to the flow (chat/handoff/handoff-resume.ts). */
  | { kind: 'handoff'; resume: HandoffResume }

/** What an idempotency key is bound to: the same key with another request is refused. */
export function requestHash(request: StepRequest): string {
  if (request.kind === 'webhook') return sha256(request.waitId)
  if (request.kind === 'handoff') return sha256(`handoff ${request.resume.handoffId}`)
  const { message } = request
  return sha256(typeof message === 'string' ? message : JSON.stringify(message ?? null))
}

/** A leased session, ready for its step. */
export interface LeasedSession {
  sessionId: string
  /** The version the session started on, even if the flow was re-published since. */
  version: CachedVersion
  state: SessionState
  context: StepContext
  /** Where the request reached the service (http/service-base.ts): the start of its file URLs. */
  base?: string
}

/** The engine's outcome for `request`; its refusals as the contract's HTTP errors. */
export async function runChatStep(deps: ChatDeps, leased: LeasedSession, request: StepRequest): Promise<StepOutcome> {
  try {
    return await ask(deps, leased, request)
  } catch (error) {
    throw error instanceof EngineError ? httpErrorOf(error) : error
  }
}

async function ask(
  deps: ChatDeps,
  { sessionId, version, state, context, base }: LeasedSession,
  request: StepRequest,
): Promise<StepOutcome> {
  if (request.kind === 'webhook') {
    const delivery = { waitId: request.waitId, statusCode: 200, data: request.body ?? null }
    return countedStep('webhook', () => deps.engine.deliverWebhook(version.snapshot, state, delivery, context))
  }
  if (request.kind === 'handoff') {
    return countedStep('handoff', () => deps.engine.resumeHandoff(version.snapshot, state, request.resume, context))
  }
  const { message } = request
  const awaiting = state.awaiting
  if (awaiting?.kind === 'stream' && (message === undefined || typeof message === 'string' || message.type === 'text')) {
    // The flow goes on with what the service recorded; a client's text is never the AI's answer.
    const completion = await recordedCompletion(deps, sessionId, awaiting.streamId)
    if (!completion) throw new HttpError('conflict', 'The reply is still streaming; continue once it has finished.')
    return countedStep('stream', () => deps.engine.resumeStream(version.snapshot, state, completion, context))
  }
  const fileInput = awaiting?.kind === 'input' ? await awaitedInput(deps, state, version.snapshot) : undefined
  if (fileInput?.type === 'file input') {
    // A file input's answer names only files this session uploaded to it, each by the very URL the
    // upload answered (under this service's address); no message skips it.
    const files = base === undefined ? [] : await deps.store.uploads.filesFor(sessionId, fileInput.id)
    const uploadedFiles = new Set(files.map((file) => fileUrl(base!, file.id, file.name)))
    return deps.engine.continue(version.snapshot, state, message ?? { type: 'text', text: '' }, { ...context, uploadedFiles })
  }
  // Without a message only a payment the chat cannot take is answered; the engine says (message_required).
  return countedStep('message', () => deps.engine.continue(version.snapshot, state, message, context))
}

/** What asked the engine for a step: a new conversation, an answer, a webhook, a streamed answer's end, a handoff's end. */
export type StepKind = 'start' | 'message' | 'webhook' | 'stream' | 'handoff'

/** Runs one step of the engine, counted with its time by kind and outcome (`ok` or the error's code). */
export async function countedStep(kind: StepKind, run: () => Promise<StepOutcome>): Promise<StepOutcome> {
  if (!countingMetrics()) return run()
  const started = performance.now()
  let outcome = 'ok'
  try {
    return await run()
  } catch (error) {
    outcome = error instanceof EngineError || error instanceof HttpError ? error.code : 'internal'
    throw error
  } finally {
    metrics.chatSteps.inc({ kind, outcome })
    metrics.chatStepSeconds.observe({ kind }, (performance.now() - started) / 1000)
  }
}

/** The answer recorded for a `stream` wait, once it is complete (stream-service.ts records it). */
async function recordedCompletion(deps: ChatDeps, sessionId: string, streamId: string): Promise<ChatCompletion | undefined> {
  const row = await deps.store.aiStreams.find({ sessionId, streamId })
  if (row?.status !== 'done') return undefined
  const usage = row.usage as CompletionUsage | undefined
  return usage ? { text: row.text, usage } : { text: row.text }
}

/** What a step of this session may use: its workspace's flows, the guarded HTTP client, its mailer. */
export function stepContext(
  deps: ChatDeps,
  ids: { workspaceId: string; flowId: string; sessionId: string; resultId: string },
  request?: RequestContext,
) {
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
    report: (message) => requestLogger(request).warn({ workspace: ids.workspaceId, flowId: ids.flowId }, message),
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
    deliveryId: newId(),
    timestamp: now.toISOString(),
    expiresAt: expiry(now, sessionTtlSeconds),
  }
}

function expiry(now: Date, ttlSeconds: number): string {
  return new Date(now.getTime() + ttlSeconds * 1000).toISOString()
}
