import { signal } from '@preact/signals'

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
