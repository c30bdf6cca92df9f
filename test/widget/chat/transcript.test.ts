import { effect } from '@preact/signals'
import { describe, expect, it } from 'vitest'
import { guestEntry, hostEntry } from '../../../src/widget/chat/entries'
import { CHUNK_SIZE, RECENT_HOSTS, createTranscript } from '../../../src/widget/chat/transcript'

const host = (id: string) => hostEntry({ id, type: 'text', content: { plainText: id } }, undefined)

describe('transcript', () => {
  it('leaves earlier chunks untouched when appending, so old bubbles never re-render', () => {
    const transcript = createTranscript()
    for (let i = 0; i < CHUNK_SIZE + 1; i++) transcript.append(host(`m${i}`))
    const [first] = transcript.chunks.value
    let firstChunkChanges = 0
    let chunkListChanges = 0
    const stopFirst = effect(() => void (first?.entries.value, firstChunkChanges++))
    const stopList = effect(() => void (transcript.chunks.value, chunkListChanges++))
    for (let i = 0; i < CHUNK_SIZE - 1; i++) transcript.append(host(`n${i}`))
    expect(firstChunkChanges).toBe(1)
    expect(chunkListChanges).toBe(1)
    transcript.append(host('next-chunk'))
    expect(chunkListChanges).toBe(2)
    expect(transcript.size).toBe(2 * CHUNK_SIZE + 1)
    stopFirst()
    stopList()
  })

  it('keeps the newest host entries for announcements and gives every entry a unique key', () => {
    const transcript = createTranscript()
    const hosts = Array.from({ length: RECENT_HOSTS + 1 }, () => host('same'))
    transcript.append(hosts[0]!)
    transcript.append(guestEntry('answer', undefined))
    expect(transcript.recentHosts.value).toEqual([hosts[0]])
    for (const entry of hosts.slice(1)) transcript.append(entry)
    expect(transcript.recentHosts.value).toEqual(hosts.slice(1))
    expect(new Set(hosts.map((entry) => entry.key)).size).toBe(hosts.length)
    transcript.clear()
    expect(transcript.chunks.value).toEqual([])
    expect(transcript.recentHosts.value).toEqual([])
  })
})
