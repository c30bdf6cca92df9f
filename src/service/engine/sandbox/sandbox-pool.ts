import { SandboxHost, type SandboxJob, type SandboxRun } from './sandbox-host'

/**
 * A small pool of sandbox workers shared by every tenant, scheduled fairly: code waits behind
 * its own tenant's code, not everyone's. Waiting jobs are grouped by tenant (the workspace), and
 * within a tenant by session; a free worker takes the next tenant in turn, and that tenant's next
 * session in turn, so ten endless loops of one tenant delay another tenant's code by at most one
 * running job. A tenant may hold at most half the workers while another tenant is waiting, and a
 * session's own jobs run in the order they came.
 */
export interface FairnessKey {
  /** Who pays for the code: jobs of one tenant share one turn. */
  tenant: string
  /** Within a tenant, the conversation the code belongs to. */
  session: string
}

export interface SandboxPoolOptions {
  /** Worker threads (each runs one job at a time). */
  size: number
  /** Jobs one tenant may have waiting; more are refused at once ("busy"). */
  maxQueuedPerTenant?: number
  /** Longest a job may wait for a worker before it is refused. */
  maxWaitMs?: number
  /** Makes a worker host (tests). */
  createHost?: () => Pick<SandboxHost, 'run' | 'close'>
}

const DEFAULT_MAX_QUEUED_PER_TENANT = 100
const DEFAULT_MAX_WAIT_MS = 10_000

interface Waiting {
  job: SandboxJob
  key: FairnessKey
  resolve: (run: SandboxRun) => void
  timer: NodeJS.Timeout
}

/** A tenant with jobs waiting or running: its sessions' queues and when each was last served. */
interface Tenant {
  sessions: Map<string, Waiting[]>
  sessionServedAt: Map<string, number>
  servedAt: number
  waiting: number
  running: number
}

type Host = Pick<SandboxHost, 'run' | 'close'>

export class SandboxPool {
  readonly size: number
  private readonly hosts: Host[] = []
  private readonly idle: Host[] = []
  private readonly tenants = new Map<string, Tenant>()
  /** Dispatch counter: the tenant (and session) served longest ago goes next. */
  private turn = 0
  private readonly maxQueuedPerTenant: number
  private readonly maxWaitMs: number

  constructor(options: SandboxPoolOptions) {
    this.size = Math.max(1, Math.floor(options.size))
    this.maxQueuedPerTenant = options.maxQueuedPerTenant ?? DEFAULT_MAX_QUEUED_PER_TENANT
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS
    const createHost = options.createHost ?? (() => new SandboxHost())
    for (let i = 0; i < this.size; i++) {
      const host = createHost()
      this.hosts.push(host)
      this.idle.push(host)
    }
  }

  run(job: SandboxJob, key: FairnessKey): Promise<SandboxRun> {
    let tenant = this.tenants.get(key.tenant)
    if (tenant && tenant.waiting >= this.maxQueuedPerTenant) return Promise.resolve(refusal('The code sandbox is busy'))
    if (!tenant) {
      tenant = { sessions: new Map(), sessionServedAt: new Map(), servedAt: -1, waiting: 0, running: 0 }
      this.tenants.set(key.tenant, tenant)
    }
    const queued = tenant
    return new Promise((resolve) => {
      const waiting: Waiting = { job, key, resolve, timer: setTimeout(() => this.expire(waiting), this.maxWaitMs) }
      waiting.timer.unref()
      const queue = queued.sessions.get(key.session)
      if (queue) queue.push(waiting)
      else queued.sessions.set(key.session, [waiting])
      queued.waiting++
      this.dispatch()
    })
  }

  /** Stops every worker; waiting jobs fail, running ones end with the shut-down error. */
  async close(): Promise<void> {
    for (let waiting = this.take(Infinity); waiting; waiting = this.take(Infinity)) {
      clearTimeout(waiting.timer)
      waiting.resolve(refusal('The code sandbox was shut down'))
    }
    await Promise.all(this.hosts.map((host) => host.close()))
  }

  private dispatch(): void {
    // A tenant already on half the workers waits while another tenant has jobs.
    const share = Math.max(1, Math.floor(this.size / 2))
    while (this.idle.length > 0) {
      const waiting = this.take(share) ?? this.take(Infinity)
      if (!waiting) return
      clearTimeout(waiting.timer)
      const host = this.idle.pop()!
      const tenant = this.tenants.get(waiting.key.tenant)!
      tenant.running++
      void host.run(waiting.job).then((run) => {
        tenant.running--
        this.forgetIfIdle(waiting.key.tenant, tenant)
        this.idle.push(host)
        waiting.resolve(run)
        this.dispatch()
      })
    }
  }

  /** The next job of the tenant served longest ago among those running fewer than `share` jobs. */
  private take(share: number): Waiting | undefined {
    let chosen: [string, Tenant] | undefined
    for (const entry of this.tenants) {
      const tenant = entry[1]
      if (tenant.waiting === 0 || tenant.running >= share) continue
      if (!chosen || tenant.servedAt < chosen[1].servedAt) chosen = entry
    }
    if (!chosen) return undefined
    const tenant = chosen[1]
    let session: string | undefined
    for (const name of tenant.sessions.keys()) {
      const servedAt = tenant.sessionServedAt.get(name) ?? -1
      if (session === undefined || servedAt < (tenant.sessionServedAt.get(session) ?? -1)) session = name
    }
    const queue = tenant.sessions.get(session!)!
    const waiting = queue.shift()!
    if (queue.length === 0) tenant.sessions.delete(session!)
    tenant.waiting--
    tenant.servedAt = this.turn
    tenant.sessionServedAt.set(session!, this.turn++)
    return waiting
  }

  /** A job that waited too long for a worker is refused rather than kept in line. */
  private expire(waiting: Waiting): void {
    const tenant = this.tenants.get(waiting.key.tenant)
    const queue = tenant?.sessions.get(waiting.key.session)
    const index = queue ? queue.indexOf(waiting) : -1
    if (!tenant || !queue || index < 0) return
    queue.splice(index, 1)
    if (queue.length === 0) tenant.sessions.delete(waiting.key.session)
    tenant.waiting--
    this.forgetIfIdle(waiting.key.tenant, tenant)
    waiting.resolve(refusal('The code sandbox is busy'))
  }

  private forgetIfIdle(name: string, tenant: Tenant): void {
    if (tenant.waiting === 0 && tenant.running === 0) this.tenants.delete(name)
  }
}

function refusal(message: string): SandboxRun {
  return { outcome: { status: 'error', message }, runMs: 0 }
}
