import { afterEach, describe, expect, it } from 'vitest'
import type { SandboxJob, SandboxRun } from '../../../../src/service/engine/sandbox/sandbox-host'
import { SandboxPool } from '../../../../src/service/engine/sandbox/sandbox-pool'

/** Workers that run only when the test says so, recording the order jobs start in. */
class ManualHosts {
  readonly started: string[] = []
  private readonly running: Array<{ source: string; finish: () => void }> = []

  readonly create = () => ({
    run: (job: SandboxJob) =>
      new Promise<SandboxRun>((resolve) => {
        this.started.push(job.source)
        this.running.push({ source: job.source, finish: () => resolve({ outcome: { status: 'ok', value: job.source }, runMs: 1 }) })
      }),
    close: async () => undefined,
  })

  /** Finishes the job running `source` and lets the pool start the next. */
  async finish(source: string): Promise<void> {
    const index = this.running.findIndex((job) => job.source === source)
    if (index < 0) throw new Error(`${source} is not running`)
    this.running.splice(index, 1)[0]!.finish()
    await new Promise((resolve) => setImmediate(resolve))
  }
}

const job = (source: string): SandboxJob => ({ source, timeoutMs: 100, memoryBytes: 1 << 20 })

let pool: SandboxPool
afterEach(() => pool.close())

describe('SandboxPool', () => {
  it("gives another tenant the next worker, not the noisy tenant's tenth job", async () => {
    const hosts = new ManualHosts()
    pool = new SandboxPool({ size: 1, createHost: hosts.create })
    for (let i = 1; i <= 5; i++) void pool.run(job(`a${i}`), { tenant: 'A', session: `a-session-${i}` })
    const quiet = pool.run(job('b1'), { tenant: 'B', session: 'b' })
    await hosts.finish('a1')
    expect(hosts.started).toEqual(['a1', 'b1'])
    await hosts.finish('b1')
    expect((await quiet).outcome).toEqual({ status: 'ok', value: 'b1' })
    expect(hosts.started).toEqual(['a1', 'b1', 'a2'])
  })

  it("takes a tenant's sessions in turn, and each session's jobs in order", async () => {
    const hosts = new ManualHosts()
    pool = new SandboxPool({ size: 1, createHost: hosts.create })
    for (const source of ['x1', 'x2', 'x3']) void pool.run(job(source), { tenant: 'A', session: 'x' })
    void pool.run(job('y1'), { tenant: 'A', session: 'y' })
    for (const source of ['x1', 'y1', 'x2']) await hosts.finish(source)
    expect(hosts.started).toEqual(['x1', 'y1', 'x2', 'x3'])
  })

  it('lets a tenant alone use every worker, but hands the next free one to a newcomer', async () => {
    const hosts = new ManualHosts()
    pool = new SandboxPool({ size: 2, createHost: hosts.create })
    for (let i = 1; i <= 4; i++) void pool.run(job(`a${i}`), { tenant: 'A', session: `s${i}` })
    expect(hosts.started).toEqual(['a1', 'a2'])
    void pool.run(job('b1'), { tenant: 'B', session: 'b' })
    await hosts.finish('a1')
    expect(hosts.started).toEqual(['a1', 'a2', 'b1'])
  })

  it("refuses a tenant's jobs beyond its queue, and jobs that waited too long", async () => {
    const hosts = new ManualHosts()
    pool = new SandboxPool({ size: 1, maxQueuedPerTenant: 2, maxWaitMs: 50, createHost: hosts.create })
    void pool.run(job('a1'), { tenant: 'A', session: 's' })
    const waiting = pool.run(job('a2'), { tenant: 'A', session: 's' })
    void pool.run(job('a3'), { tenant: 'A', session: 's' })
    const refused = await pool.run(job('a4'), { tenant: 'A', session: 's' })
    expect(refused.outcome).toEqual({ status: 'error', message: 'The code sandbox is busy' })
    expect((await pool.run(job('b1'), { tenant: 'B', session: 'b' })).outcome).toEqual({
      status: 'error',
      message: 'The code sandbox is busy',
    })
    expect((await waiting).outcome).toEqual({ status: 'error', message: 'The code sandbox is busy' })
    expect(hosts.started).toEqual(['a1'])
  })
})

describe('SandboxPool on real workers', () => {
  it("finishes another tenant's quick code while one tenant runs endless loops", async () => {
    pool = new SandboxPool({ size: 1 })
    const finished: string[] = []
    const loop = { source: 'while (true) {}', timeoutMs: 300, memoryBytes: 8 << 20 }
    const runs = [1, 2, 3].map((i) => pool.run(loop, { tenant: 'noisy', session: `n${i}` }).then(() => finished.push(`noisy${i}`)))
    const quick = pool.run({ source: '6 * 7', timeoutMs: 300, memoryBytes: 8 << 20 }, { tenant: 'quiet', session: 'q' })
    runs.push(quick.then((run) => finished.push(`quiet=${JSON.stringify(run.outcome)}`)))
    await Promise.all(runs)
    expect(finished).toEqual(['noisy1', 'quiet={"status":"ok","value":42}', 'noisy2', 'noisy3'])
  })
})
