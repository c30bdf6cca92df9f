import { errorLine, finishLine, STREAM_LOG_CONTEXT, type StreamErrorLog, textLines } from '../../protocol/stream'
import { AiCallError, type ChatCompletion, type CompletionUsage } from '../engine/ai/chat-completion'
import type { Awaiting, SessionState } from '../engine/types'
import { HttpError } from '../http/errors'
import { rateLimited } from '../http/rate-limit'
import { newId } from '../ids'
import { verdictOf } from '../store/rate-limits-repository'
import type { ChatDeps, ChatGate } from './chat-service'
import type { LiveStream } from './live-streams'
import { flowClosed, sessionEnded, sessionNotFound } from './session-steps'

/**
 * `streamMessage`: the answer of the AI block a session waits on (a `stream` wait), streamed as
 * lines of the protocol's data stream. The provider is called once per answer: the first request
 * claims the stream in the database and reads the provider in the background (on to the end even
 * if its client leaves), recording the text as it grows and the whole answer when it ends. Every
 * request, the first one included, follows that record: part by part from this process's live
 * stream, or by polling the database when another process reads the provider. A finished answer
 * is replayed; a failed one is asked for again.
 */

/** How long a process holds a stream it reads without renewing (renewed as it writes progress). */
const HOLD_MS = 15_000
/** How often a running stream writes its text for other processes (and renews its hold). */
const PROGRESS_EVERY_MS = 250
const HEARTBEAT_EVERY_MS = 5_000
/** How often a request of another process looks at a stream it follows. */
const POLL_MS = 200

type StreamWait = Extract<Awaiting, { kind: 'stream' }>
type Ids = { sessionId: string; resultId: string; workspaceId: string }
type Follow = { kind: 'live'; live: LiveStream } | { kind: 'stored' }

export async function streamMessage(
  deps: ChatDeps,
  input: { sessionId: string; rateKey: string; signal?: AbortSignal; admit: (gate: ChatGate) => Promise<void> },
): Promise<ReadableStream<Uint8Array>> {
  const session = input.sessionId ? await deps.store.sessions.findById(input.sessionId) : undefined
  const { flow, rateLimit } = await deps.steps.findFlowHead(session?.flowId ?? '', {
    rateLimit: (name, params) => deps.limiter.cte(name, params, input.rateKey),
  })
  const version = flow?.currentVersionId ? await deps.versions.get(flow.currentVersionId) : undefined
  await input.admit({
    allowedOrigins: version?.allowedOrigins ?? [],
    rateLimited: rateLimit && rateLimited(verdictOf(rateLimit, deps.limiter.config)),
    found: session !== undefined && flow !== undefined,
  })
  if (!session || !flow) throw sessionNotFound(input.sessionId)
  if (flow.isArchived) throw new HttpError('flow_closed', 'This flow is no longer available; the conversation cannot go on.')
  if (flow.isClosed) throw flowClosed()
  if (session.completedAt !== null) throw sessionEnded()
  if (deps.now().getTime() >= Date.parse(session.expiresAt)) {
    throw new HttpError('session_expired', 'This chat session expired after a period of inactivity; start a new chat.')
  }
  const awaiting = (session.state as SessionState).awaiting
  if (awaiting?.kind !== 'stream') throw new HttpError('conflict', 'This conversation is not waiting for a streamed answer.')
  const ids: Ids = { sessionId: session.id, resultId: session.resultId, workspaceId: flow.workspaceId }
  const follow = await firstSign(deps, ids, awaiting, await join(deps, ids, awaiting), input.signal)
  return toBody(lines(deps, ids, awaiting, follow))
}

/** The answer recorded for a `stream` wait, once it is complete. */
export async function recordedCompletion(deps: ChatDeps, sessionId: string, streamId: string): Promise<ChatCompletion | undefined> {
  const row = await deps.store.aiStreams.find(sessionId, streamId)
  if (row?.status !== 'done') return undefined
  const usage = row.usage as CompletionUsage | undefined
  return usage ? { text: row.text, usage } : { text: row.text }
}

/** Starts the provider call when nobody runs or recorded this answer; else follows whoever does. */
async function join(deps: ChatDeps, ids: Ids, wait: StreamWait): Promise<Follow> {
  const live = deps.integrations.streams.get(ids.sessionId, wait.streamId)
  if (live) return { kind: 'live', live }
  const owner = newId()
  if (!(await deps.store.aiStreams.claim(ids.sessionId, wait.streamId, owner, HOLD_MS, deps.now()))) return { kind: 'stored' }
  return { kind: 'live', live: deps.integrations.streams.start(ids.sessionId, wait.streamId, (started) => run(deps, ids, wait, owner, started)) }
}

/**
 * Waits for the first words (or the end): a provider that fails before saying anything is a 502
 * `upstream_failed`, never a 200 carrying an error. An abandoned stream is claimed again.
 */
async function firstSign(deps: ChatDeps, ids: Ids, wait: StreamWait, follow: Follow, signal?: AbortSignal): Promise<Follow> {
  let failure: Omit<StreamErrorLog, 'status' | 'context'> | undefined
  if (follow.kind === 'live') {
    const { live } = follow
    while (live.parts.length === 0 && live.status === 'running' && !signal?.aborted) await live.changed(0, signal)
    if (live.parts.length === 0 && live.status === 'failed') failure = live.error
  } else {
    for (;;) {
      const row = await deps.store.aiStreams.find(ids.sessionId, wait.streamId)
      if (!row || row.text !== '' || row.status === 'done' || signal?.aborted) break
      if (row.status === 'failed') {
        failure = row.error as typeof failure
        break
      }
      if (row.abandoned) return firstSign(deps, ids, wait, await join(deps, ids, wait), signal)
      await sleep(POLL_MS, signal)
    }
  }
  if (failure) throw new HttpError('upstream_failed', failure.description, failure.details)
  return follow
}

/** The lines of the answer: from this process's live stream, or from the database's record. */
async function* lines(deps: ChatDeps, ids: Ids, wait: StreamWait, follow: Follow): AsyncGenerator<string> {
  if (follow.kind === 'live') {
    const { live } = follow
    for (let seen = 0; ; ) {
      while (seen < live.parts.length) yield textLines(live.parts[seen++]!)
      if (live.status === 'done') return yield finishLine()
      if (live.status === 'failed') return yield errorLine(live.error ?? { description: 'The answer could not be streamed' })
      await live.changed(seen)
    }
  }
  for (let sent = 0; ; ) {
    const row = await deps.store.aiStreams.find(ids.sessionId, wait.streamId)
    if (!row || row.text.length < sent) return yield errorLine({ description: 'The answer was started over; ask again' })
    if (row.text.length > sent) {
      yield textLines(row.text.slice(sent))
      sent = row.text.length
    }
    if (row.status === 'done') return yield finishLine()
    if (row.status === 'failed') return yield errorLine((row.error as StreamErrorLog | undefined) ?? { description: 'The answer could not be streamed' })
    if (row.abandoned) return yield errorLine({ description: 'The answer stopped before its end; ask again' })
    await sleep(POLL_MS)
  }
}

/** Reads the provider to the end, recording the text as it grows, then the whole answer or the failure. */
async function run(deps: ChatDeps, ids: Ids, wait: StreamWait, owner: string, live: LiveStream): Promise<void> {
  const repo = deps.store.aiStreams
  let written = 0
  let lastWrite = Date.now()
  let writing: Promise<void> | undefined
  let lost = false
  const text = () => live.parts.join('')
  const timer = setInterval(() => {
    const due = live.parts.length > written || Date.now() - lastWrite >= HEARTBEAT_EVERY_MS
    if (writing || !due) return
    written = live.parts.length
    lastWrite = Date.now()
    writing = repo
      .progress(ids.sessionId, wait.streamId, owner, text(), HOLD_MS)
      .then((held) => void (lost ||= !held), () => undefined)
      .finally(() => (writing = undefined))
  }, PROGRESS_EVERY_MS)
  let usage: CompletionUsage | undefined
  try {
    for await (const event of deps.integrations.ai.stream(ids.workspaceId, wait.request, live.abort.signal)) {
      if (event.type === 'usage') usage = event.usage
      else live.push(event.text)
      if (lost) throw new AiCallError('network', 'Another process took this answer over')
    }
    clearInterval(timer)
    await writing
    if (!(await repo.finish(ids.sessionId, wait.streamId, owner, text(), usage))) {
      throw new AiCallError('network', 'Another process took this answer over')
    }
    live.end('done')
  } catch (error) {
    clearInterval(timer)
    await writing
    const failure = error instanceof AiCallError ? error : new AiCallError('answer', "The AI provider's answer could not be read")
    if (!(error instanceof AiCallError)) console.error('[service] streaming an AI answer failed:', error)
    const details = { blockId: wait.blockId, ...(failure.status === undefined ? {} : { status: failure.status }) }
    const log = { description: failure.message, details }
    await repo.fail(ids.sessionId, wait.streamId, owner, log).catch(() => undefined)
    const logged = { ...details, context: STREAM_LOG_CONTEXT }
    const logs: { status: string; description: string; details: Record<string, unknown> }[] = [
      { status: 'error', description: failure.message, details: logged },
    ]
    // What the provider said may name the account: kept with the result, never streamed.
    if (failure.providerMessage) logs.push({ status: 'error', description: 'The AI provider said', details: { ...logged, message: failure.providerMessage } })
    await deps.store.resultLogs.add(ids.resultId, ids.sessionId, logs, deps.now()).catch(() => undefined)
    live.end('failed', log)
  }
}

/** A byte stream of the lines; a client that leaves stops only its own copy. */
function toBody(source: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await source.next()
      if (done) controller.close()
      else controller.enqueue(encoder.encode(value))
    },
    async cancel() {
      await source.return(undefined)
    },
  })
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}
