import { batch, signal } from '@preact/signals-core'
import type { Words } from '../../i18n/strings'
import { isTransportError, TransportError } from '../../transport/index'
import { streamMessage } from '../../transport/stream'
import { describeFailure, type Told, told } from '../events/failures'
import type { StreamedAnswer } from '../state/entries'
import type { ActionRunner } from './runners'

/**
 * The `stream` action: an AI answer streams into a host bubble, then the conversation goes on
 * with a continueChat that carries no message (the service recorded the answer). A chunk of its
 * own with the stream reader, requested when a step announces a stream.
 */

/** A streamed answer and the controls the runner drives it with. */
function createAnswer() {
  const status = signal<'streaming' | 'done' | 'failed'>('streaming')
  const error = signal<{ words: Words; retryable: boolean } | null>(null)
  const listeners = new Set<(text: string, reset: boolean) => void>()
  let text = ''
  let retried: (() => void) | undefined
  const answer: StreamedAnswer = {
    status,
    error,
    get text() {
      return text
    },
    listen(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    retry: () => retried?.(),
  }
  const tell = (piece: string, reset: boolean) => {
    for (const listener of listeners) listener(piece, reset)
  }
  return {
    answer,
    append(piece: string) {
      text += piece
      tell(piece, false)
    },
    replace(whole: string) {
      text = whole
      tell(whole, true)
    },
    fail(words: Words, retryable: boolean) {
      batch(() => {
        error.value = { words, retryable }
        status.value = 'failed'
      })
    },
    finish() {
      status.value = 'done'
    },
    /** Resolves when the visitor asks for the answer again; rejects when the conversation goes away. */
    retried(cancel: AbortSignal): Promise<void> {
      return new Promise((resolve, reject) => {
        const onAbort = () => reject(new TransportError('aborted', 'Cancelled'))
        cancel.addEventListener('abort', onAbort, { once: true })
        retried = () => {
          retried = undefined
          cancel.removeEventListener('abort', onAbort)
          batch(() => {
            error.value = null
            status.value = 'streaming'
          })
          resolve()
        }
      })
    },
  }
}

type Driver = ReturnType<typeof createAnswer>

/**
 * A new attempt's pieces against the text an interrupted attempt left on screen. The service
 * replays a recorded answer from its start, or asks the AI again: while the new text repeats what
 * is shown, nothing changes; past its end, pieces are appended; at the first difference (a new
 * answer) the bubble's text is replaced once, from there on. Each piece costs its own length.
 */
export function follow(driver: Pick<Driver, 'append' | 'replace'> & { answer: Pick<StreamedAnswer, 'text'> }) {
  const shown = driver.answer.text
  let matched = 0
  let diverged = shown.length === 0
  return {
    piece(piece: string) {
      if (diverged) return driver.append(piece)
      const expected = shown.slice(matched, matched + piece.length)
      if (piece.startsWith(expected)) {
        matched += expected.length
        if (expected.length === piece.length) return
        diverged = true
        return driver.append(piece.slice(expected.length))
      }
      diverged = true
      driver.replace(shown.slice(0, matched) + piece)
    },
    /** The new answer is complete: a shorter one than what was shown replaces it. */
    end() {
      if (!diverged && matched < shown.length) driver.replace(shown.slice(0, matched))
    },
  }
}

const markdownMessage = (id: string, text: string) => ({ id, type: 'text', content: { plainText: text, format: 'markdown' } })

export const streamAnswer: ActionRunner = async (action, context) => {
  const { signal: cancel, emit } = context
  const driver = createAnswer()
  const id = action.lastBubbleBlockId ?? 'streamed-answer'
  const entry = context.showStream(markdownMessage(id, ''), driver.answer)
  const target = { ...context.client.chat, sessionId: context.sessionId }
  for (let attempt = 0; ; attempt++) {
    const reconcile = follow(driver)
    let opened = false
    let failure: Told
    try {
      const end = await streamMessage(target, {
        signal: cancel,
        sleep: context.sleep,
        onOpen: () => {
          opened = true
          emit('flowchat:stream-start', { attempt })
        },
        onText: reconcile.piece,
      })
      if (end.ok) {
        reconcile.end()
        const text = driver.answer.text
        // What a reload shows and the live region reads: the whole answer, set once.
        entry.message = markdownMessage(id, text)
        driver.finish()
        emit('flowchat:stream-end', { attempt, text })
        return { reply: null }
      }
      emit('flowchat:log', {
        status: 'error',
        description: end.log.description,
        details: end.log.details,
        source: 'service',
        code: 'stream-failed',
      })
      failure = told('answerFailed', { code: 'stream-failed', retryable: true, details: end.log })
    } catch (error) {
      if (cancel.aborted || (isTransportError(error) && error.kind === 'aborted')) throw error
      if (isTransportError(error) && error.kind === 'http' && !error.retryable) {
        // The session is gone or not waiting for this answer: asking again cannot help. The
        // continueChat that follows meets the same state and ends in its ordinary failure.
        driver.fail(describeFailure(error).words, false)
        return { reply: null }
      }
      failure = describeFailure(error)
      if (opened) failure = told('answerInterrupted', { ...failure.detail, code: 'stream-interrupted' })
    }
    emit('flowchat:error', failure.detail)
    driver.fail(failure.words, true)
    await driver.retried(cancel)
  }
}
