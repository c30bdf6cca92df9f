import { batch, signal, type ReadonlySignal, type Signal } from '@preact/signals'
import type { Entry, HostEntry } from './entries'

/** Entries per chunk: appending copies at most this many references. */
export const CHUNK_SIZE = 32
/** Host entries kept for announcements: enough for a burst of bubbles, bounded in size. */
export const RECENT_HOSTS = 3

export interface TranscriptChunk {
  key: number
  entries: ReadonlySignal<readonly Entry[]>
}

export interface Transcript {
  /** Changes once per CHUNK_SIZE appends; each chunk's own signal changes on every append to it. */
  readonly chunks: ReadonlySignal<readonly TranscriptChunk[]>
  /** The newest host entries (at most RECENT_HOSTS): what the live region announces. */
  readonly recentHosts: ReadonlySignal<readonly HostEntry[]>
  readonly size: number
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
  const recentHosts = signal<readonly HostEntry[]>([])
  let tail: Signal<readonly Entry[]> | undefined
  let size = 0
  let nextChunkKey = 0
  return {
    chunks,
    recentHosts,
    get size() {
      return size
    },
    append(entry) {
      batch(() => {
        if (!tail || tail.peek().length >= CHUNK_SIZE) {
          tail = signal<readonly Entry[]>([entry])
          chunks.value = [...chunks.peek(), { key: nextChunkKey++, entries: tail }]
        } else {
          tail.value = [...tail.peek(), entry]
        }
        size++
        if (entry.kind === 'host') recentHosts.value = [...recentHosts.peek().slice(1 - RECENT_HOSTS), entry]
      })
    },
    clear() {
      tail = undefined
      size = 0
      batch(() => {
        chunks.value = []
        recentHosts.value = []
      })
    },
  }
}
