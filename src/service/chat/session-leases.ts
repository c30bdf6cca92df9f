import { HttpError } from '../http/errors'
import { newId } from '../ids'
import type { ChatStepsRepository } from '../store/chat-steps-repository'

/**
 * How one session's steps take turns. A step holds its session by a lease in the session's row
 * (owner token and expiry, see chat-steps-repository.ts): it works across processes, holds no
 * connection while the flow runs, and a lease whose holder crashed simply expires. Within one
 * process, answers to one session also queue here in arrival order, so they do not poll the
 * database for a lease their neighbour holds; across processes a waiting answer polls, backing off.
 */
export interface LeaseTiming {
  /** How long a lease lasts unless renewed; a crashed holder's lease frees the session after this. */
  leaseMs: number
  /** How long an answer waits for a lease another request holds before it is refused. */
  waitMs: number
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = { leaseMs: 30_000, waitMs: 60_000 }

export const newLeaseOwner = newId

/** Lets requests for one key go one after another, in the order they came, within this process. */
export class LocalQueue {
  private readonly tails = new Map<string, Promise<void>>()

  /** Resolves when every earlier request for `key` left; call what it returns to leave in turn. */
  async enter(key: string): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve()
    let done!: () => void
    const tail = previous.then(() => new Promise<void>((resolve) => (done = resolve)))
    this.tails.set(key, tail)
    await previous
    return () => {
      done()
      if (this.tails.get(key) === tail) this.tails.delete(key)
    }
  }
}

/** Polls until `attempt` reports the lease taken, backing off; refuses after `waitMs`. */
export async function waitForLease<T>(attempt: () => Promise<T | undefined>, waitMs: number): Promise<T> {
  const deadline = Date.now() + waitMs
  for (let delay = 10; ; delay = Math.min(delay * 2, 250)) {
    const got = await attempt()
    if (got !== undefined) return got
    if (Date.now() + delay > deadline) throw sessionBusy()
    await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay))
  }
}

export function sessionBusy(): HttpError {
  return new HttpError(
    'conflict',
    'Another answer to this conversation is still being processed; send this one again in a moment.',
    undefined,
    { 'Retry-After': '1' },
  )
}

/**
 * Keeps a lease alive while a step runs (renewed at a third of its duration), and says whether it
 * was lost meanwhile (this process stalled past the expiry and another took the session over).
 */
export function keepLease(
  repository: Pick<ChatStepsRepository, 'renewLease'>,
  sessionId: string,
  owner: string,
  leaseMs: number,
): { stop(): void; readonly lost: boolean } {
  let lost = false
  const timer = setInterval(() => {
    repository.renewLease(sessionId, owner, leaseMs).then(
      (held) => (lost ||= !held),
      () => undefined, // a failed renewal is retried next time; the commit checks the lease anyway
    )
  }, leaseMs / 3)
  timer.unref()
  return {
    stop: () => clearInterval(timer),
    get lost() {
      return lost
    },
  }
}
