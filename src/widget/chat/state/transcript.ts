import { batch, type ReadonlySignal, type Signal, signal } from '@preact/signals-core'
import { chunkFailure, type Emit } from '../events/events'
import type { Entry } from './entries'

/** Entries per chunk: appending copies at most this many references. */
export const CHUNK_SIZE = 32

export interface TranscriptChunk {
  key: number
  entries: ReadonlySignal<readonly Entry[]>
}

export interface Transcript {
  /** Changes once per CHUNK_SIZE appends; each chunk's own signal changes on every append to it. */
  readonly chunks: ReadonlySignal<readonly TranscriptChunk[]>
  /** Entries so far; changes on every append (the live region follows it). */
  readonly count: ReadonlySignal<number>
  /** Host messages so far (the first one shows without typing dots). */
  readonly hostCount: number
  /** Changes when the transcript is cleared: entries of an earlier epoch belong to a finished conversation. */
  readonly epoch: number
  /** The entry at `index` (0 is the oldest), in constant time. */
  at(index: number): Entry | undefined
  append(entry: Entry): void
  clear(): void
}

/**
 * The conversation so far, split into fixed-size chunks so appending message N costs the same as
 * appending message 1: only the last chunk's signal changes, so only that chunk re-renders, and
 * earlier bubbles are never visited again.
 */
export function createTranscript(): Transcript {
  const chunks = signal<readonly TranscriptChunk[]>([])
  const count = signal(0)
  let tail: Signal<readonly Entry[]> | undefined
  let hosts = 0
  let epoch = 0
  let nextChunkKey = 0
  const at = (index: number) => chunks.peek()[Math.floor(index / CHUNK_SIZE)]?.entries.peek()[index % CHUNK_SIZE]
  return {
    chunks,
    count,
    get hostCount() {
      return hosts
    },
    get epoch() {
      return epoch
    },
    at,
    append(entry) {
      batch(() => {
        if (!tail || tail.peek().length >= CHUNK_SIZE) {
          tail = signal<readonly Entry[]>([entry])
          chunks.value = [...chunks.peek(), { key: nextChunkKey++, entries: tail }]
        } else {
          tail.value = [...tail.peek(), entry]
        }
        if (entry.kind === 'host') hosts++
        count.value++
      })
    },
    clear() {
      tail = undefined
      hosts = 0
      epoch++
      batch(() => {
        chunks.value = []
        count.value = 0
      })
    },
  }
}

/** The code that writes a transcript (transcript-lines.ts): a chunk, for the end of a conversation and the chat menu's downloads. */
export const loadTranscriptLines = () => import('./transcript-lines')

/**
 * Tells the page the flow ended (`flowchat:end`), with the transcript, whose code is a chunk of
 * its own (transcript-lines.ts): dispatched as soon as that chunk is here, without the transcript
 * (and with a log) if it cannot load.
 */
export function announceEnd(transcript: Transcript, emit: Emit): void {
  loadTranscriptLines().then(
    (chunk) => emit('flowchat:end', { transcript: chunk.transcriptLines(transcript) }),
    (error: unknown) => {
      emit('flowchat:log', chunkFailure('transcript', error))
      emit('flowchat:end', {})
    },
  )
}
