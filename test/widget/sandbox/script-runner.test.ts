import { describe, expect, it } from 'vitest'
import type { ScriptOutcome } from '../../../src/widget/sandbox/index'
import { MAX_EVENTS_PER_RUN, MAX_RESULT_CHARS } from '../../../src/widget/sandbox/limits'
import { SANDBOX_ORIGIN, SANDBOX_URL } from './frame-harness'
import {
  create,
  event,
  events,
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

describe('createScriptRunner', () => {
  it('creates no frame until the first run, then one hidden sandboxed frame in the container', async () => {
    create()
    expect(page.frame()).toBeNull()
    const { outcome } = await start()
    const iframe = page.frame()!
    expect(iframe.getAttribute('sandbox')).toBe('allow-scripts')
    expect(iframe.src).toBe(SANDBOX_URL)
    expect(lastRun()).toEqual({
      type: 'flow-chat-sandbox:run',
      runId: expect.stringMatching(/^[0-9a-f]{32}$/),
      content: 'return name',
      names: ['name'],
      values: '["Ada"]',
      allowNetwork: false,
      limits: { resultChars: 100_000, eventChars: 32_768, events: 50 },
      // No page address given: every part empty, never the sandbox's own.
      page: { href: '', origin: '', pathname: '', search: '', hash: '', referrer: '' },
    })
    page.fromFrame(result(lastRun().runId, { status: 'ok', value: '"Ada"' }))
    expect(await outcome).toEqual({ ok: true, value: 'Ada' })
  })

  it('loads the network variant of the sandbox and says so in each run when network access is allowed', async () => {
    create({ allowNetwork: true })
    await start()
    expect(page.frame()!.src).toBe(`${SANDBOX_URL}?network=1`)
    expect(lastRun().allowNetwork).toBe(true)
  })

  it('passes missing values as null and gives every run its own id', async () => {
    create()
    const { outcome: first } = await start({
      content: 'return [a, b]',
      args: [
        { id: 'a', value: undefined },
        { id: 'b', value: { x: [1] } },
      ],
    })
    expect(lastRun().values).toBe('[null,{"x":[1]}]')
    const firstId = lastRun().runId
    page.fromFrame(result(firstId, { status: 'ok' }))
    expect(await first).toEqual({ ok: true, value: undefined })
    void runner.run({ content: '', args: [] })
    await flush()
    expect(runMessages()).toHaveLength(2)
    expect(lastRun().runId).not.toBe(firstId)
    expect(page.root.querySelectorAll('iframe')).toHaveLength(1)
  })

  it('reads the result as JSON and drops __proto__ keys from it', async () => {
    create()
    const { outcome } = await start()
    page.fromFrame(result(lastRun().runId, { status: 'ok', value: '{"__proto__":{"polluted":true},"plan":"team"}' }))
    const value = (await outcome) as { ok: true; value: object }
    expect(value).toEqual({ ok: true, value: { plan: 'team' } })
    expect(Object.keys(value.value)).toEqual(['plan'])
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
  })

  it('accepts only replies from its frame, with an opaque origin and the current run id', async () => {
    create()
    const state = track((await start()).outcome)
    const { runId } = lastRun()
    const forged = result(runId, { status: 'ok', value: '"forged"' })
    page.fromFrame(forged, { source: window })
    page.fromFrame(forged, { source: null })
    page.fromFrame(forged, { origin: SANDBOX_ORIGIN })
    page.fromFrame(result('f'.repeat(32), { status: 'ok', value: '"stale"' }))
    page.fromFrame({ ...result(runId, { status: 'ok', value: 42 }) })
    await flush()
    expect(state.done).toBe(false)
    expect(logs.map((l) => l.code)).toEqual(['sandbox-message-rejected', 'sandbox-message-rejected'])

    page.fromFrame(result(runId, { status: 'ok', value: '"real"' }))
    page.fromFrame(result(runId, { status: 'ok', value: '"second answer"' }))
    await flush()
    expect(state.outcome).toEqual({ ok: true, value: 'real' })
  })

  it('turns failures into outcomes', async () => {
    create()
    const cases: [Record<string, unknown>, ScriptOutcome][] = [
      [
        { status: 'error', message: 'TypeError: x is not a function' },
        { ok: false, reason: 'error', message: 'TypeError: x is not a function' },
      ],
      [
        { status: 'error', message: '' },
        { ok: false, reason: 'error', message: 'The script failed' },
      ],
      [
        { status: 'too_large', message: 'The result is 5 MB' },
        { ok: false, reason: 'too_large', message: 'The result is 5 MB' },
      ],
      [
        { status: 'ok', value: 'x'.repeat(MAX_RESULT_CHARS + 1) },
        { ok: false, reason: 'too_large', message: `The result is over the limit of ${MAX_RESULT_CHARS} characters as JSON` },
      ],
      [
        { status: 'ok', value: '{not json' },
        { ok: false, reason: 'error', message: 'The sandbox sent a result that is not JSON' },
      ],
    ]
    for (const [fields, expected] of cases) {
      const outcome = runner.run(SCRIPT)
      await flush()
      if (runMessages().length === 0) page.fromFrame(READY)
      await flush()
      page.fromFrame(result(lastRun().runId, fields))
      expect(await outcome).toEqual(expected)
    }
  })

  it('replaces the frame after the sandbox could not start a script', async () => {
    create()
    const { outcome } = await start()
    const first = page.frame()
    page.fromFrame(result(lastRun().runId, { status: 'unavailable', message: 'The sandbox could not start a worker' }))
    expect(await outcome).toEqual({ ok: false, reason: 'unavailable', message: 'The sandbox could not start a worker' })
    expect(page.frame()).toBeNull()
    await start()
    expect(page.frame()).not.toBe(first)
    expect(runMessages()).toHaveLength(2)
  })

  it('delivers the events of the running script, parsed, up to the per-run limit', async () => {
    create()
    const { outcome } = await start()
    const { runId } = lastRun()
    page.fromFrame(event(runId, 'analytics.track', '{"step":"pricing","__proto__":{"x":1}}'))
    page.fromFrame(event('e'.repeat(32), 'other.run', '1'))
    page.fromFrame(event(runId, 'not-json', '{'))
    for (let i = 0; i < MAX_EVENTS_PER_RUN + 5; i++) page.fromFrame(event(runId, 'tick', String(i)))
    page.fromFrame(result(runId, { status: 'ok' }))
    await outcome
    page.fromFrame(event(runId, 'after.the.end', '1'))
    expect(events[0]).toEqual({ name: 'analytics.track', payload: { step: 'pricing' } })
    expect(events.filter((e) => e.name === 'tick')).toHaveLength(MAX_EVENTS_PER_RUN - 2)
    expect(events.map((e) => e.name)).not.toContain('other.run')
    expect(events.map((e) => e.name)).not.toContain('after.the.end')
    expect(logs).toEqual([{ level: 'warning', code: 'sandbox-message-rejected', message: 'The payload of event "not-json" is not JSON' }])
  })

  it('logs an onHostEvent handler that throws, and the script goes on', async () => {
    create({
      onHostEvent: () => {
        throw new Error('handler bug')
      },
    })
    const { outcome } = await start()
    page.fromFrame(event(lastRun().runId, 'track', '1'))
    page.fromFrame(result(lastRun().runId, { status: 'ok', value: '1' }))
    expect(await outcome).toEqual({ ok: true, value: 1 })
    expect(logs).toEqual([
      { level: 'warning', code: 'host-event-handler-failed', message: 'Handling the script event "track" failed: handler bug' },
    ])
  })

  it('runs one script at a time, in the order they were asked for', async () => {
    create()
    const { outcome: first } = await start({ content: 'return 1', args: [] })
    const second = track(runner.run({ content: 'return 2', args: [] }))
    await flush()
    expect(runMessages().map((m) => m.content)).toEqual(['return 1'])
    page.fromFrame(result(lastRun().runId, { status: 'ok', value: '1' }))
    expect(await first).toEqual({ ok: true, value: 1 })
    await flush()
    expect(runMessages().map((m) => m.content)).toEqual(['return 1', 'return 2'])
    page.fromFrame(result(lastRun().runId, { status: 'ok', value: '2' }))
    await flush()
    expect(second.outcome).toEqual({ ok: true, value: 2 })
  })

  it('refuses arguments that cannot be parameters or JSON, without loading the sandbox', async () => {
    create()
    expect(await runner.run({ content: '', args: [{ id: 'first-name', value: 'x' }] })).toEqual({
      ok: false,
      reason: 'error',
      message: 'The script argument "first-name" is not a usable parameter name',
    })
    expect(await runner.run({ content: '', args: [{ id: 'big', value: 10n }] })).toMatchObject({
      ok: false,
      reason: 'error',
      message: expect.stringMatching(/^The script arguments are not JSON values/),
    })
    expect(page.frame()).toBeNull()
  })

  it('never loads a sandbox URL that is not http(s)', async () => {
    create({ sandboxUrl: 'javascript:alert(1)' })
    expect(await runner.run(SCRIPT)).toEqual({
      ok: false,
      reason: 'unavailable',
      message: 'The script sandbox URL must be an http(s) URL, not "javascript:"',
    })
    expect(page.frame()).toBeNull()
  })
})
