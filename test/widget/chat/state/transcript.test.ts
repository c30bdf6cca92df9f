import { effect } from '@preact/signals'
import { describe, expect, it } from 'vitest'
import { latest } from '../../../../src/widget/chat/memory/remembered'
import { guestEntry, hostEntry } from '../../../../src/widget/chat/state/entries'
import { CHUNK_SIZE, createTranscript } from '../../../../src/widget/chat/state/transcript'

const host = (id: string) => hostEntry({ id, type: 'text', content: { plainText: id } }, undefined)

describe('transcript', () => {
  it('leaves earlier chunks untouched when appending, so old bubbles never re-render', () => {
    const transcript = createTranscript()
    for (let i = 0; i < CHUNK_SIZE + 1; i++) transcript.append(host(`m${i}`))
    const [first] = transcript.chunks.value
    let firstChunkChanges = 0
    let chunkListChanges = 0
    const stopFirst = effect(() => {
      void first?.entries.value
      firstChunkChanges++
    })
    const stopList = effect(() => {
      void transcript.chunks.value
      chunkListChanges++
    })
    for (let i = 0; i < CHUNK_SIZE - 1; i++) transcript.append(host(`n${i}`))
    expect(firstChunkChanges).toBe(1)
    expect(chunkListChanges).toBe(1)
    transcript.append(host('next-chunk'))
    expect(chunkListChanges).toBe(2)
    expect(transcript.count.value).toBe(2 * CHUNK_SIZE + 1)
    stopFirst()
    stopList()
  })

  it('reads any entry in constant time and the newest ones for saving, and counts its host messages', () => {
    const transcript = createTranscript()
    const entries = Array.from({ length: CHUNK_SIZE * 2 + 5 }, (_, i) => (i % 2 ? guestEntry(`a${i}`, undefined) : host(`m${i}`)))
    for (const entry of entries) transcript.append(entry)
    expect(transcript.at(0)).toBe(entries[0])
    expect(transcript.at(CHUNK_SIZE + 3)).toBe(entries[CHUNK_SIZE + 3])
    expect(transcript.at(entries.length)).toBeUndefined()
    // What a remembered conversation saves (remembered.ts): the newest entries, oldest first.
    expect(latest(transcript, 3)).toEqual(entries.slice(-3))
    expect(latest(transcript, 1000)).toEqual(entries)
    expect(transcript.hostCount).toBe(entries.filter((entry) => entry.kind === 'host').length)
  })

  it('gives every entry a unique key and starts a new epoch when cleared', () => {
    const transcript = createTranscript()
    const hosts = [host('same'), host('same')]
    for (const entry of hosts) transcript.append(entry)
    expect(new Set(hosts.map((entry) => entry.key)).size).toBe(2)
    const epoch = transcript.epoch
    transcript.clear()
    expect(transcript.chunks.value).toEqual([])
    expect(transcript.count.value).toBe(0)
    expect(transcript.hostCount).toBe(0)
    expect(transcript.epoch).not.toBe(epoch)
  })
})
