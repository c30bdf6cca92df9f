import { HttpError } from '../../http/errors'

/**
 * The live streams this process holds open, counted per workspace and per client network: one
 * more than the setting is a 429 with the error body, before anything is read or held. Counted
 * per process (a stream is a connection this process keeps): with WORKERS=n, a workspace may hold
 * n times the setting in all (docs/operators/configuration.md).
 */
export class OpenStreams {
  private readonly byWorkspace = new Map<string, number>()
  private readonly byAddress = new Map<string, number>()

  constructor(private readonly limits: { streamsPerWorkspace: number; streamsPerAddress: number }) {}

  /** Takes a place for a stream, or throws the 429; the function returned gives it back (once). */
  open(workspaceId: string, clientKey: string): () => void {
    const workspace = this.byWorkspace.get(workspaceId) ?? 0
    const address = this.byAddress.get(clientKey) ?? 0
    if (workspace >= this.limits.streamsPerWorkspace) {
      throw busy(`This workspace has ${workspace} live streams open, its most; try again shortly.`)
    }
    if (address >= this.limits.streamsPerAddress) throw busy(`This network has ${address} live streams open, its most; close one first.`)
    this.byWorkspace.set(workspaceId, workspace + 1)
    this.byAddress.set(clientKey, address + 1)
    let released = false
    return () => {
      if (released) return
      released = true
      decrement(this.byWorkspace, workspaceId)
      decrement(this.byAddress, clientKey)
    }
  }

  get total(): number {
    let n = 0
    for (const count of this.byWorkspace.values()) n += count
    return n
  }
}

const RETRY_SECONDS = 5

const busy = (message: string) => new HttpError('rate_limited', message, undefined, { 'Retry-After': String(RETRY_SECONDS) })

function decrement(map: Map<string, number>, key: string): void {
  const left = (map.get(key) ?? 1) - 1
  if (left > 0) map.set(key, left)
  else map.delete(key)
}
