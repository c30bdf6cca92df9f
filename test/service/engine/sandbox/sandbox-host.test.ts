import { afterEach, describe, expect, it } from 'vitest'
import { SandboxHost } from '../../../../src/service/engine/sandbox/sandbox-host'

const job = (source: string, timeoutMs = 200) => ({ source, timeoutMs, memoryBytes: 8 * 1024 * 1024 })

describe('SandboxHost', () => {
  let host: SandboxHost
  afterEach(() => host.close())

  it('runs jobs submitted together one after the other, each with its own result', async () => {
    host = new SandboxHost()
    const runs = await Promise.all(Array.from({ length: 8 }, (_, i) => host.run(job(`${i} * 2`))))
    expect(runs.map((run) => run.outcome)).toEqual(Array.from({ length: 8 }, (_, i) => ({ status: 'ok', value: i * 2 })))
  })

  it('ends a job whose single built-in calls outlast the deadline, then goes on with a new worker', async () => {
    host = new SandboxHost()
    // QuickJS checks its interrupt only every few thousand operations and each `repeat` here is
    // long, so only terminating the worker ends this run.
    const [stuck, next] = await Promise.all([host.run(job('while (true) "x".repeat(1 << 20)')), host.run(job('6 * 7'))])
    expect(stuck.outcome).toEqual({ status: 'timeout' })
    expect(next.outcome).toEqual({ status: 'ok', value: 42 })
  })

  it('refuses jobs at once when too many are waiting', async () => {
    host = new SandboxHost({ maxQueuedJobs: 1 })
    const first = host.run(job('1'))
    const refused = await host.run(job('2'))
    expect(refused.outcome).toEqual({ status: 'error', message: 'The code sandbox is busy' })
    expect((await first).outcome).toEqual({ status: 'ok', value: 1 })
  })

  it('fails waiting jobs when closed, and starts again on the next job', async () => {
    host = new SandboxHost()
    const waiting = host.run(job('1'))
    await host.close()
    expect((await waiting).outcome).toEqual({ status: 'error', message: 'The code sandbox was shut down' })
    expect((await host.run(job('"again"'))).outcome).toEqual({ status: 'ok', value: 'again' })
  })
})
