import type { Settings } from '../protocol/index'

const keyFor = (flow: string) => `flowchat:result:${flow}`

/** Storage can be missing or throw (sandboxed frames, privacy modes): remembering is best effort. */
function storageOf(kind: 'session' | 'local'): Storage | undefined {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage
  } catch {
    return undefined
  }
}

function attempt(action: () => void): void {
  try {
    action()
  } catch {
    // Full or forbidden storage only means the visitor starts fresh next time.
  }
}

/** The result a returning visitor left in this browser for `flow`, if any. */
export function rememberedResult(flow: string): string | undefined {
  for (const kind of ['session', 'local'] as const) {
    let value: string | null | undefined
    attempt(() => (value = storageOf(kind)?.getItem(keyFor(flow))))
    if (value) return value
  }
  return undefined
}

/**
 * Remembers the visitor's result where the flow's `rememberUser` setting says (session or local
 * storage), or forgets it when the flow does not remember users.
 */
export function rememberResult(flow: string, resultId: string, settings: Settings | null | undefined): void {
  const remember = settings?.general?.rememberUser
  const kind = remember?.isEnabled === true ? (remember.storage === 'local' ? 'local' : 'session') : undefined
  for (const candidate of ['session', 'local'] as const) {
    const storage = storageOf(candidate)
    if (!storage) continue
    attempt(() => (candidate === kind ? storage.setItem(keyFor(flow), resultId) : storage.removeItem(keyFor(flow))))
  }
}
