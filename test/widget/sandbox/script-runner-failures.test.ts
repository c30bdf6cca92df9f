import { beforeEach, describe, expect, it, vi } from 'vitest'
import { reportViolation, SANDBOX_ORIGIN, SANDBOX_URL } from './frame-harness'
import {
  create,
  flush,
  lastRun,
  logs,
  page,
  READY,
  result,
  runMessages,
  runner,
  SCRIPT,
  start,
  track,
  useRunnerHarness,
} from './runner-harness'

useRunnerHarness()

describe('the watchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })

  it('stops a script at the time limit, removes its frame and gives the next run a fresh one', async () => {
    create({ timeoutMs: 2_000 })
    const state = track((await start()).outcome)
    const { runId } = lastRun()
    const first = page.frame()
    await vi.advanceTimersByTimeAsync(1_999)
    expect(state.done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(state.outcome).toEqual({ ok: false, reason: 'timeout', message: 'The script did not finish within 2000 ms, so it was stopped' })
    expect(page.frame()).toBeNull()
    expect(logs).toEqual([
      { level: 'info', code: 'sandbox-restarted', message: 'A script ran out of time; the next one gets a fresh sandbox' },
    ])

    const { outcome: next } = await start()
    expect(page.frame()).not.toBe(first)
    page.fromFrame(result(runId, { status: 'ok', value: '"late answer of the stopped run"' }))
    page.fromFrame(result(lastRun().runId, { status: 'ok', value: '"next"' }))
    expect(await next).toEqual({ ok: true, value: 'next' })
  })

  it('allows 10 seconds by default and keeps an embedder limit within 100 ms and 5 minutes', async () => {
    for (const [timeoutMs, limit] of [
      [undefined, 10_000],
      [5, 100],
      [Number.NaN, 10_000],
      [3_600_000, 300_000],
    ] as const) {
      create({ timeoutMs })
      const state = track((await start()).outcome)
      await vi.advanceTimersByTimeAsync(limit - 1)
      expect(state.done, String(timeoutMs)).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(state.outcome).toMatchObject({ ok: false, reason: 'timeout' })
      runner.dispose()
    }
  })

  it('does not count the time the sandbox takes to load', async () => {
    create({ timeoutMs: 1_000 })
    const state = track(runner.run(SCRIPT))
    await vi.advanceTimersByTimeAsync(5_000)
    page.fromFrame(READY)
    await vi.advanceTimersByTimeAsync(999)
    expect(state.done).toBe(false)
    page.fromFrame(result(lastRun().runId, { status: 'ok', value: '3' }))
    await vi.advanceTimersByTimeAsync(0)
    expect(state.outcome).toEqual({ ok: true, value: 3 })
  })
})

describe('when there is no sandbox', () => {
  it("gives up at once when the page's CSP refuses the frame, says why once, and does not try again", async () => {
    create()
    const outcome = runner.run(SCRIPT)
    await flush()
    reportViolation('frame-src', SANDBOX_ORIGIN)
    const expected = `This page's Content Security Policy does not allow the script sandbox at ${SANDBOX_ORIGIN}: add "frame-src ${SANDBOX_ORIGIN}" to it. Flow scripts cannot run until then.`
    expect(await outcome).toEqual({ ok: false, reason: 'unavailable', message: expected })
    expect(await runner.run(SCRIPT)).toEqual({ ok: false, reason: 'unavailable', message: expected })
    expect(page.frame()).toBeNull()
    expect(logs).toEqual([{ level: 'error', code: 'sandbox-blocked-by-csp', message: expected }])
  })

  it('reports a sandbox that does not load, and tries a new frame on the next run', async () => {
    vi.useFakeTimers()
    create({ loadTimeoutMs: 3_000 })
    const outcome = track(runner.run(SCRIPT))
    await vi.advanceTimersByTimeAsync(3_000)
    const message = `The script sandbox at ${SANDBOX_URL} did not load within 3000 ms`
    expect(outcome.outcome).toEqual({ ok: false, reason: 'unavailable', message })
    expect(logs).toEqual([{ level: 'error', code: 'sandbox-unavailable', message }])
    expect(page.frame()).toBeNull()
    const { outcome: next } = await start()
    page.fromFrame(result(lastRun().runId, { status: 'ok', value: 'true' }))
    await vi.advanceTimersByTimeAsync(0)
    expect(await next).toEqual({ ok: true, value: true })
  })

  it('replaces a frame that something else took out of the page', async () => {
    create()
    const { outcome: first } = await start()
    page.fromFrame(result(lastRun().runId, { status: 'ok' }))
    await first
    page.frame()!.remove()
    await start()
    expect(page.frame()).not.toBeNull()
    expect(runMessages()).toHaveLength(2)
  })

  it('on dispose, ends the running and queued scripts as unavailable and removes the frame', async () => {
    create()
    const { outcome: running } = await start()
    const queued = runner.run(SCRIPT)
    runner.dispose()
    const closed = { ok: false, reason: 'unavailable', message: 'The script runner was closed' }
    expect(await running).toEqual(closed)
    expect(await queued).toEqual(closed)
    expect(await runner.run(SCRIPT)).toEqual(closed)
    expect(page.frame()).toBeNull()
    expect(logs).toEqual([])
  })

  it('keeps running when the log handler itself throws', async () => {
    create({
      onLog: () => {
        throw new Error('logger bug')
      },
    })
    const outcome = runner.run(SCRIPT)
    await flush()
    reportViolation('frame-src', SANDBOX_ORIGIN)
    expect(await outcome).toMatchObject({ ok: false, reason: 'unavailable' })
  })
})
