/**
 * How much outgoing work each workspace may have under way in one service process, so that one
 * tenant's slow or silent targets hold its own slots and never another's: name lookups and calls
 * each have a number of slots per workspace; a caller waits for a free one within its deadline.
 */

export interface OutboundLimits {
  /** Calls one chat step may make (HTTP request blocks). */
  callsPerStep: number
  /** Calls a workspace may have open at once (from the moment it waits for a name until its answer is read). */
  workspaceCalls: number
  /** Name lookups a workspace may have running at once. */
  workspaceLookups: number
}

export const DEFAULT_OUTBOUND_LIMITS: OutboundLimits = { callsPerStep: 10, workspaceCalls: 16, workspaceLookups: 4 }

export type Release = () => void

/** A counting semaphore whose waiters leave when their signal aborts. */
class Slots {
  private used = 0
  private readonly waiting: Array<() => void> = []

  constructor(
    private readonly size: number,
    private readonly onIdle: () => void,
  ) {}

  get idle(): boolean {
    return this.used === 0 && this.waiting.length === 0
  }

  acquire(signal: AbortSignal): Promise<Release> {
    if (signal.aborted) return Promise.reject(signal.reason as Error)
    if (this.used < this.size) {
      this.used++
      return Promise.resolve(this.releaser())
    }
    return new Promise<Release>((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', leave)
        resolve(this.releaser())
      }
      const leave = () => {
        this.waiting.splice(this.waiting.indexOf(grant), 1)
        if (this.idle) this.onIdle()
        reject(signal.reason as Error)
      }
      signal.addEventListener('abort', leave, { once: true })
      this.waiting.push(grant)
    })
  }

  private releaser(): Release {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.waiting.shift()
      // The slot passes straight to the next waiter: `used` stays as it is.
      if (next) next()
      else this.used--
      if (this.idle) this.onIdle()
    }
  }
}

/** Each workspace's slots, made when it first calls out and dropped once nothing of it runs. */
export class WorkspaceLimits {
  private readonly lanes = new Map<string, { calls: Slots; lookups: Slots }>()

  constructor(readonly limits: OutboundLimits) {}

  /** A slot of `kind` for the workspace; rejects with the signal's reason if it aborts first. */
  acquire(workspaceId: string, kind: 'calls' | 'lookups', signal: AbortSignal): Promise<Release> {
    if (signal.aborted) return Promise.reject(signal.reason as Error)
    let lane = this.lanes.get(workspaceId)
    if (!lane) {
      const drop = () => {
        if (this.lanes.get(workspaceId) === created && created.calls.idle && created.lookups.idle) this.lanes.delete(workspaceId)
      }
      const created = { calls: new Slots(this.limits.workspaceCalls, drop), lookups: new Slots(this.limits.workspaceLookups, drop) }
      this.lanes.set(workspaceId, created)
      lane = created
    }
    return lane[kind].acquire(signal)
  }
}
