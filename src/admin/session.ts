import { computed, signal } from '@preact/signals'
import { tokenKindOf } from '../protocol/management'

/**
 * The secret token lives in this tab's sessionStorage only: gone when the tab closes, never in a
 * cookie (no request carries it unless the console's own code adds it), never in localStorage
 * (another tab or a later visitor of a shared computer does not find it).
 */
const TOKEN_KEY = 'flow-console:token'

const read = (key: string) => {
  try {
    return sessionStorage.getItem(key)
  } catch {
    return null
  }
}
const write = (key: string, value: string | null) => {
  try {
    if (value === null) sessionStorage.removeItem(key)
    else sessionStorage.setItem(key, value)
  } catch {
    // Storage refused (a private mode): the console works for this page's life.
  }
}

export const token = signal<string | null>(read(TOKEN_KEY))
/**
 * Signed in with an agent token: a person of the team who answers conversations, to whom the
 * console shows the inbox only (the service refuses such a token everything else anyway).
 */
export const isAgent = computed(() => token.value !== null && tokenKindOf(token.value) === 'agent')
/** Why the owner was signed out, shown on the sign-in form. */
export const signOutReason = signal<string | null>(null)

export function signIn(value: string): void {
  write(TOKEN_KEY, value)
  signOutReason.value = null
  token.value = value
}

export function signOut(reason: string | null = null): void {
  write(TOKEN_KEY, null)
  signOutReason.value = reason
  token.value = null
}

/** What the live region says: the last thing that happened. */
export const announcement = signal('')
export function announce(text: string): void {
  // The same words twice must be read twice: clear, then set on the next frame.
  announcement.value = ''
  requestAnimationFrame(() => (announcement.value = text))
}
