/**
 * Steps of one session that reach this process run one after the other, in arrival order, so two
 * answers sent at once never both run the flow (and its HTTP calls and e-mails) on the same state.
 * Other processes are kept out by the optimistic check at commit (see chat-service.ts).
 */
export class SessionQueue {
  private readonly tails = new Map<string, Promise<unknown>>()

  run<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(sessionId) ?? Promise.resolve()
    const result = previous.then(work, work)
    const tail = result.catch(() => undefined)
    this.tails.set(sessionId, tail)
    void tail.then(() => {
      if (this.tails.get(sessionId) === tail) this.tails.delete(sessionId)
    })
    return result
  }
}
