import type { SavedConversation } from './saved-schema'

/** Storage for one chat's saved conversation (the element's: conversation-storage.ts); implementations never throw. */
export interface ConversationMemory {
  /** The saved record, unchecked (the conversation validates it), or undefined. */
  load(): unknown
  /** Saves in the storage the flow's setting names, and removes it from the other. */
  save(storage: 'session' | 'local', data: SavedConversation): void
  clear(): void
  /**
   * Hears the records other tabs of the site save under the same key (unchecked), until the
   * returned function is called (tab-sync.ts keeps the tabs of one conversation in step).
   */
  watch?(listener: (data: unknown) => void): () => void
}
