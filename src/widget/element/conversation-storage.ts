import { type ConversationMemory, type Emit, widgetWarning } from '../chat/index'

const PREFIX = 'flowchat:chat:'
const KINDS = ['session', 'local'] as const

/**
 * Conversations kept for the life of this page when the browser's storage cannot be used (blocked
 * cookies, private modes, a full quota): `reload()` still resumes, a new page load starts fresh.
 */
const pageMemory = new Map<string, string>()

/** Chats (by key) that have said their storage is unavailable: they say it once, not on every restart. */
const warned = new Set<string>()

/** Accessing `window.localStorage` itself throws where storage is blocked, so it is read lazily. */
const storageOf = (kind: 'session' | 'local'): Storage => (kind === 'local' ? window.localStorage : window.sessionStorage)

/** The storage key of one chat instance: per flow and per instance, so two chats never mix. */
export const conversationKey = (flow: string, instance: string) => `${PREFIX}${flow}:${instance}`

/**
 * Remembers a conversation in session or local storage under `key`, falling back to page memory
 * with one `storage-unavailable` log when storage throws. Never throws itself.
 */
export function createConversationStorage(key: string, emit: Emit): ConversationMemory {
  const degrade = (error: unknown) => {
    if (warned.has(key)) return
    warned.add(key)
    emit(
      'flowchat:log',
      widgetWarning('storage-unavailable', 'Browser storage is unavailable; the conversation is remembered on this page only', {
        error: String(error),
      }),
    )
  }
  const attempt = (kind: 'session' | 'local', action: (storage: Storage) => void): boolean => {
    try {
      action(storageOf(kind))
      return true
    } catch (error) {
      degrade(error)
      return false
    }
  }
  /** Keeps `raw` in the storage of `kind` (in page memory where it cannot) and nowhere else; without them, nowhere. */
  const write = (kind?: 'session' | 'local', raw?: string) => {
    if (kind && raw !== undefined && !attempt(kind, (storage) => storage.setItem(key, raw))) pageMemory.set(key, raw)
    else pageMemory.delete(key)
    for (const other of KINDS) if (other !== kind) attempt(other, (storage) => storage.removeItem(key))
  }

  /** Where this tab tells the other tabs of this site what it saved under `key`, while it listens (watch). */
  let channel: BroadcastChannel | undefined
  const parse = (raw: string) => {
    try {
      return JSON.parse(raw)
    } catch {
      return raw // Not JSON: the conversation's own check refuses it and starts fresh.
    }
  }

  const memory: ConversationMemory = {
    load() {
      let raw = pageMemory.get(key) ?? null
      for (const kind of KINDS) if (raw === null) attempt(kind, (storage) => (raw = storage.getItem(key)))
      return raw === null ? undefined : parse(raw)
    },
    save(kind, data) {
      const raw = JSON.stringify(data)
      write(kind, raw)
      channel?.postMessage(raw)
    },
    clear: () => write(),
    /**
     * Other tabs' saves under this key: posted on a BroadcastChannel of the page's origin; where
     * there is none, the `storage` event of local storage (which only other tabs' writes fire).
     * A tab coming back to the front reads the record again: a browser may have frozen it meanwhile.
     */
    watch(listener) {
      const hear = (raw: unknown) => typeof raw === 'string' && listener(parse(raw))
      const onShow = () => document.visibilityState === 'visible' && listener(memory.load())
      document.addEventListener('visibilitychange', onShow)
      let stop = () => removeEventListener('storage', onStorage)
      const onStorage = (event: StorageEvent) => event.key === key && hear(event.newValue)
      if (typeof BroadcastChannel === 'function') {
        const own = (channel = new BroadcastChannel(key))
        own.onmessage = (event) => hear(event.data)
        stop = () => {
          own.close()
          if (channel === own) channel = undefined
        }
      } else addEventListener('storage', onStorage)
      return () => {
        document.removeEventListener('visibilitychange', onShow)
        stop()
      }
    },
  }
  return memory
}

/** Forgets a remembered conversation without a chat to hand (a reset before the chat exists). */
export function forgetConversation(flow: string, instance: string): void {
  if (flow.trim()) createConversationStorage(conversationKey(flow.trim(), instance), () => {}).clear()
}

/** Instance names in use on this page, so two chats of one flow without names still differ. */
const claimed = new Map<string, object>()

/**
 * Claims a storage key for `owner`: `base`, or `base#2`, `#3`… when another live chat holds it.
 * Chats start in document order, so the same page gets the same keys after a reload.
 */
export function claimConversationKey(base: string, owner: object): { key: string; release(): void } {
  let key = base
  for (let n = 2; claimed.has(key) && claimed.get(key) !== owner; n++) key = `${base}#${n}`
  claimed.set(key, owner)
  return {
    key,
    release: () => {
      if (claimed.get(key) === owner) claimed.delete(key)
    },
  }
}
