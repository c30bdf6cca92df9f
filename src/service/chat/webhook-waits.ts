/**
 * A widget waiting for a wait-for-webhook block asks until the flow went on. The step the webhook
 * produced is stored with the session (see chat-service.ts), so any process can answer: the
 * waiting request looks every `pollMs`, and is woken at once when its own process stored it.
 */
export class WebhookWaits {
  private readonly waiting = new Map<string, Set<() => void>>()

  constructor(private readonly pollMs = 1_000) {}

  /** The step for this wait was stored: wake the requests of this process waiting for it. */
  notify(sessionId: string, waitId: string): void {
    for (const wake of this.waiting.get(key(sessionId, waitId)) ?? []) wake()
  }

  /**
   * `lookup` until it finds something or `timeoutMs` pass (then undefined). Stops early when
   * `signal` aborts (the client went away).
   */
  async wait<T>(
    ids: { sessionId: string; waitId: string },
    lookup: () => Promise<T | undefined>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<T | undefined> {
    const deadline = Date.now() + options.timeoutMs
    const id = key(ids.sessionId, ids.waitId)
    for (;;) {
      const found = await lookup()
      if (found !== undefined) return found
      const left = deadline - Date.now()
      if (left <= 0 || options.signal?.aborted) return undefined
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          options.signal?.removeEventListener('abort', wake)
          this.waiting.get(id)?.delete(wake)
          if (this.waiting.get(id)?.size === 0) this.waiting.delete(id)
          resolve()
        }
        const timer = setTimeout(wake, Math.min(this.pollMs, left))
        options.signal?.addEventListener('abort', wake, { once: true })
        let set = this.waiting.get(id)
        if (!set) this.waiting.set(id, (set = new Set()))
        set.add(wake)
      })
    }
  }
}

function key(sessionId: string, waitId: string): string {
  return `${sessionId}\n${waitId}`
}
