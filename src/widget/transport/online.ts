import { TransportError } from './errors'

/** The browser says it has no network (`navigator.onLine` false); where it cannot say, it is online. */
export const isOffline = (): boolean => globalThis.navigator?.onLine === false

/**
 * Resolves once the browser is online again (its `online` event), at once if it is; rejects as
 * `aborted` with `signal` (a restart, a removal), letting go of its listener either way.
 */
export const whenOnline = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (!isOffline()) return resolve()
    const settle = (aborted: boolean) => {
      removeEventListener('online', online)
      signal.removeEventListener('abort', abort)
      if (aborted) reject(new TransportError('aborted', 'Cancelled'))
      else resolve()
    }
    const online = () => settle(false)
    const abort = () => settle(true)
    if (signal.aborted) return abort()
    addEventListener('online', online)
    signal.addEventListener('abort', abort)
  })
