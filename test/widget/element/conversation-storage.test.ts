import { afterEach, describe, expect, it, vi } from 'vitest'
import { conversationKey, createConversationStorage } from '../../../src/widget/element/conversation-storage'

const record = (rev: number) => ({ version: 2, sessionId: 's1', rev }) as never

afterEach(() => {
  localStorage.clear()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe("a chat's storage across tabs", () => {
  it("tells the other chats of the same key what it saved, on the page's BroadcastChannel, and nothing to itself", async () => {
    const key = conversationKey('f1', 'chat')
    const here = createConversationStorage(key, () => {})
    const there = createConversationStorage(key, () => {})
    const other = createConversationStorage(conversationKey('f2', 'chat'), () => {})
    const heardHere: unknown[] = []
    const heardThere: unknown[] = []
    const heardOther: unknown[] = []
    const stops = [
      here.watch!((data) => heardHere.push(data)),
      there.watch!((data) => heardThere.push(data)),
      other.watch!((data) => heardOther.push(data)),
    ]
    here.save('local', record(1))
    await vi.waitFor(() => expect(heardThere).toEqual([record(1)]))
    expect(heardHere).toEqual([])
    expect(heardOther).toEqual([])
    expect(JSON.parse(localStorage.getItem(key)!)).toEqual(record(1))
    for (const stop of stops) stop()
    here.save('local', record(2))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(heardThere).toEqual([record(1)])
  })

  it('reads the record again when its tab comes back to the front (a browser may have frozen it)', () => {
    const key = conversationKey('f1', 'chat')
    const memory = createConversationStorage(key, () => {})
    const heard: unknown[] = []
    const stop = memory.watch!((data) => heard.push(data))
    localStorage.setItem(key, JSON.stringify(record(7)))
    let visibility: DocumentVisibilityState = 'hidden'
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility)
    document.dispatchEvent(new Event('visibilitychange'))
    visibility = 'visible'
    document.dispatchEvent(new Event('visibilitychange'))
    expect(heard).toEqual([record(7)])
    stop()
    document.dispatchEvent(new Event('visibilitychange'))
    expect(heard).toEqual([record(7)])
  })

  it("hears other tabs' writes to local storage where there is no BroadcastChannel", () => {
    vi.stubGlobal('BroadcastChannel', undefined)
    const key = conversationKey('f1', 'chat')
    const heard: unknown[] = []
    const stop = createConversationStorage(key, () => {}).watch!((data) => heard.push(data))
    const event = (name: string, value: string | null) => new StorageEvent('storage', { key: name, newValue: value })
    dispatchEvent(event(key, JSON.stringify(record(3))))
    dispatchEvent(event('another-key', JSON.stringify(record(4))))
    dispatchEvent(event(key, null))
    expect(heard).toEqual([record(3)])
    stop()
    dispatchEvent(event(key, JSON.stringify(record(5))))
    expect(heard).toEqual([record(3)])
  })
})
