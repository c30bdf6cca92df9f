import { errorLine, finishLine, STREAM_LOG_CONTEXT, type StreamErrorLog, textLines } from '../../protocol/stream'
import { AiCallError } from '../ai/chat-completion'
import type { LiveStream } from '../ai/live-streams'
import { cutToBytes } from '../engine/core/byte-budget'
import type { CompletionUsage } from '../engine/core/ports'
import type { Awaiting, SessionState } from '../engine/core/types'
import { HttpError } from '../http/errors'
import { newId } from '../ids'
import { type RequestContext, requestLogger } from '../observability/request-context'
import type { AiStreamKey, AiStreamPart } from '../store/ai-streams-repository'
import type { ChatDeps } from './chat-deps'
import type { SessionGate } from './chat-gate'
import { refusal } from './engine-errors'
import { checkSession } from './session-check'

/**
 * `streamMessage`: the answer of the AI block a session waits on (a `stream` wait), streamed as
 * lines of the protocol's data stream. The provider is called once per answer: the first request
 * claims the stream in the database and reads the provider in the background (on to the end even
 * if its client leaves), recording the text as it grows and the whole answer when it ends. Every
 * request, the first one included, follows that record: part by part from this process's live
 * stream, or by polling the database when another process reads the provider. A finished answer
 * is replayed; a failed one is asked for again.
 *
 * What one answer may cost is bounded: its text stops at `answerBytes` (the provider is left, the
 * cut answer recorded with finish reason `length`); a workspace has at most `perWorkspace`
 * provider calls streaming at once (one more is a 429); every request beyond the one that asks
 * the provider (a reload following it, a replay of the record) draws from the answer's replay
 * limit; the text is written to the database in parts appended once each.
 */

/** How long a process holds a stream it reads without renewing (renewed as it writes progress). */
const HOLD_MS = 15_000
/** How often a running stream writes its text for other processes (and renews its hold). */
const PROGRESS_EVERY_MS = 250
const HEARTBEAT_EVERY_MS = 5_000
/** How often a request of another process looks at a stream it follows. */
const POLL_MS = 200
/** When a workspace may try again after streaming its most answers at once. */
const BUSY_RETRY_SECONDS = 5

type StreamWait = Extract<Awaiting, { kind: 'stream' }>
type Ids = { sessionId: string; resultId: string; workspaceId: string; request?: RequestContext }
const keyOf = (ids: Ids, wait: StreamWait): AiStreamKey => ({ sessionId: ids.sessionId, streamId: wait.streamId })
type Follow = { kind: 'live'; live: LiveStream } | { kind: 'stored' }

/** The answer's lines, once the gate admitted the request. */
export async function streamMessage(deps: ChatDeps, gate: SessionGate, signal?: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const { session, live } = gate
  if (!session) throw gate.notFound()
  checkSession(session, live.refusal, deps.now())
  const awaiting = (session.state as SessionState).awaiting
  if (awaiting?.kind !== 'stream') throw refusal('not_waiting_for_stream')
  const ids: Ids = { sessionId: session.id, resultId: session.resultId, workspaceId: session.workspaceId, request: gate.request }
  const follow = await firstSign(deps, ids, awaiting, await join(deps, ids, awaiting), signal)
  return toBody(lines(deps, ids, awaiting, follow))
}

/** Starts the provider call when nobody runs or recorded this answer; else follows whoever does. */
async function join(deps: ChatDeps, ids: Ids, wait: StreamWait): Promise<Follow> {
  const live = deps.integrations.streams.get(ids.sessionId, wait.streamId)
  if (live) return replay(deps, ids, wait, { kind: 'live', live })
  const owner = newId()
  const { perWorkspace } = deps.streams
  const claim = await deps.store.transaction((tx) =>
    tx.aiStreams.claim(keyOf(ids, wait), ids.workspaceId, owner, HOLD_MS, deps.now(), perWorkspace),
  )
  if (claim === 'busy') {
    throw new HttpError(
      'rate_limited',
      `This flow's workspace is streaming its most AI answers at once (${perWorkspace}); try again in a few seconds.`,
      undefined,
      { 'Retry-After': String(BUSY_RETRY_SECONDS) },
    )
  }
  if (claim === 'taken') return replay(deps, ids, wait, { kind: 'stored' })
  return {
    kind: 'live',
    live: deps.integrations.streams.start(ids.sessionId, wait.streamId, (started) => run(deps, ids, wait, owner, started)),
  }
}

/** A request for an answer another request asked for: it draws from the answer's replay limit. */
async function replay(deps: ChatDeps, ids: Ids, wait: StreamWait, follow: Follow): Promise<Follow> {
  await deps.streams.replays.consume(`replay:${ids.sessionId}:${wait.streamId}`)
  return follow
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
      const row = await deps.store.aiStreams.read(keyOf(ids, wait), -1)
      if (!row || row.parts.length > 0 || row.status === 'done' || signal?.aborted) break
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
      if (live.status === 'done') return yield finishLine(live.finishReason)
      if (live.status === 'failed') return yield errorLine(live.error ?? { description: 'The answer could not be streamed' })
      await live.changed(seen)
    }
  }
  // The parts of one attempt (its owner's): a new attempt is another answer.
  let owner: string | null | undefined
  for (let seq = -1; ; ) {
    const row = await deps.store.aiStreams.read(keyOf(ids, wait), seq)
    if (row?.status === 'failed')
      return yield errorLine((row.error as StreamErrorLog | undefined) ?? { description: 'The answer could not be streamed' })
    if (!row || (owner !== undefined && row.owner !== owner))
      return yield errorLine({ description: 'The answer was started over; ask again' })
    owner = row.owner
    for (const part of row.parts) {
      yield textLines(part.text)
      seq = part.seq
    }
    if (row.status === 'done') return yield finishLine(row.finishReason)
    if (row.abandoned) return yield errorLine({ description: 'The answer stopped before its end; ask again' })
    await sleep(POLL_MS)
  }
}

/**
 * Reads the provider to the end or to the answer's byte limit, appending the new text to the
 * database as it grows, then records the end of the answer or the failure.
 */
async function run(deps: ChatDeps, ids: Ids, wait: StreamWait, owner: string, live: LiveStream): Promise<void> {
  const repo = deps.store.aiStreams
  const key = keyOf(ids, wait)
  let written = 0
  let seq = 0
  let lastWrite = Date.now()
  let writing: Promise<void> | undefined
  let lost = false
  /** The parts not written yet, as the next part of the record. */
  const next = (): AiStreamPart | undefined => {
    const text = live.parts.slice(written).join('')
    written = live.parts.length
    return text === '' ? undefined : { seq: ++seq, text }
  }
  const timer = setInterval(() => {
    const due = live.parts.length > written || Date.now() - lastWrite >= HEARTBEAT_EVERY_MS
    if (writing || !due) return
    const [from, before] = [written, seq]
    lastWrite = Date.now()
    writing = repo
      .append(key, owner, next(), HOLD_MS)
      .then(
        (held) => void (lost ||= !held),
        // Written again with the next part: the record never misses a part.
        () => void ([written, seq] = [from, before]),
      )
      .finally(() => (writing = undefined))
  }, PROGRESS_EVERY_MS)
  let usage: CompletionUsage | undefined
  let bytes = 0
  try {
    for await (const event of deps.integrations.ai.stream(ids.workspaceId, wait.request, live.abort.signal)) {
      if (event.type === 'usage') usage = event.usage
      else {
        const text = cutToBytes(event.text, deps.streams.answerBytes - bytes)
        if (text !== '') live.push(text)
        bytes += Buffer.byteLength(text)
        // Leaving the loop closes the provider's connection: nothing more is read or paid for.
        if (text.length < event.text.length) {
          live.finishReason = 'length'
          break
        }
      }
      if (lost) throw new AiCallError('network', 'Another process took this answer over')
    }
    clearInterval(timer)
    await writing
    if (!(await repo.finish(key, owner, next(), usage, live.finishReason))) {
      throw new AiCallError('network', 'Another process took this answer over')
    }
    if (live.finishReason === 'length') {
      const description = `The AI answer was cut at ${deps.streams.answerBytes} bytes, the most one answer may carry`
      const log = { status: 'warning', description, details: { blockId: wait.blockId, context: STREAM_LOG_CONTEXT } }
      await deps.store.resultLogs.add(ids.resultId, ids.sessionId, [log], deps.now()).catch(() => undefined)
    }
    live.end('done')
  } catch (error) {
    clearInterval(timer)
    await writing
    const failure = error instanceof AiCallError ? error : new AiCallError('answer', "The AI provider's answer could not be read")
    if (!(error instanceof AiCallError)) requestLogger(ids.request).error({ err: error }, 'streaming an AI answer failed')
    const details = { blockId: wait.blockId, ...(failure.status === undefined ? {} : { status: failure.status }) }
    const errorLog = { description: failure.message, details }
    await repo.fail(key, owner, errorLog).catch(() => undefined)
    const logged = { ...details, context: STREAM_LOG_CONTEXT }
    const logs: { status: string; description: string; details: Record<string, unknown> }[] = [
      { status: 'error', description: failure.message, details: logged },
    ]
    // What the provider said may name the account: kept with the result, never streamed.
    if (failure.providerMessage)
      logs.push({ status: 'error', description: 'The AI provider said', details: { ...logged, message: failure.providerMessage } })
    await deps.store.resultLogs.add(ids.resultId, ids.sessionId, logs, deps.now()).catch(() => undefined)
    live.end('failed', errorLog)
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
