import { describe, expect, it, vi } from 'vitest'
import { MAX_WAIT_SECONDS } from '../../../../src/protocol/time-limits'
import { DEFAULT_ACTION_RUNNERS } from '../../../../src/widget/chat/actions/built-in'
import { type RunScript, scriptActionRunner } from '../../../../src/widget/chat/actions/client-actions'
import { type ActionContext, runClientAction } from '../../../../src/widget/chat/actions/runners'
import { createTranscript } from '../../../../src/widget/chat/state/transcript'
import type { ScriptOutcome } from '../../../../src/widget/sandbox/index'
import { BAD_URLS } from '../../content/bad-url-corpus'
import { fakeClient, recordEvents } from '../fake-client'

function context(overrides: Partial<ActionContext> = {}) {
  const events = recordEvents()
  const ctx: ActionContext = {
    signal: new AbortController().signal,
    sleep: vi.fn(async () => {}),
    emit: events.emit,
    navigate: vi.fn(),
    client: fakeClient().client,
    sessionId: 's1',
    showStream: () => {
      throw new Error('no stream expected')
    },
    transcript: createTranscript(),
    keep: () => {},
    present: () => {},
    ...overrides,
  }
  return { ctx, events }
}

describe('runClientAction', () => {
  it('redirects in the same tab and halts the step', async () => {
    const { ctx } = context()
    const outcome = await runClientAction({ type: 'redirect', redirect: { url: 'https://example.com/next' } }, DEFAULT_ACTION_RUNNERS, ctx)
    expect(ctx.navigate).toHaveBeenCalledWith('https://example.com/next', false)
    expect(outcome).toEqual({ halt: true })
  })

  it('opens a new tab without halting the step', async () => {
    const { ctx } = context()
    const outcome = await runClientAction(
      { type: 'redirect', redirect: { url: 'https://example.com', isNewTab: true } },
      DEFAULT_ACTION_RUNNERS,
      ctx,
    )
    expect(ctx.navigate).toHaveBeenCalledWith('https://example.com/', true)
    expect(outcome).toEqual({})
  })

  it('hands mail, phone and text redirects to their apps, in this tab, without halting the step', async () => {
    for (const url of ['mailto:sales@example.com?subject=Demo', 'tel:+15550100', 'sms:+15550100']) {
      const { ctx } = context()
      const outcome = await runClientAction({ type: 'redirect', redirect: { url, isNewTab: true } }, DEFAULT_ACTION_RUNNERS, ctx)
      expect(ctx.navigate).toHaveBeenCalledWith(url, false)
      expect(outcome).toEqual({})
    }
  })

  it('never navigates to a URL of the bad-URL corpus that a browser would run or load elsewhere', async () => {
    for (const { url, outcome: expected } of BAD_URLS.filter((bad) => bad.outcome === 'dropped')) {
      const { ctx, events } = context()
      const outcome = await runClientAction({ type: 'redirect', redirect: { url } }, DEFAULT_ACTION_RUNNERS, ctx)
      expect(ctx.navigate, `${url} (${expected})`).not.toHaveBeenCalled()
      expect(outcome).toEqual({})
      expect(events.of('flowchat:log')[0]?.code).toBe('unsafe-url')
    }
  })

  it('never navigates to a javascript: URL', async () => {
    const { ctx, events } = context()
    await runClientAction({ type: 'redirect', redirect: { url: 'javascript:alert(1)' } }, DEFAULT_ACTION_RUNNERS, ctx)
    expect(ctx.navigate).not.toHaveBeenCalled()
    expect(events.of('flowchat:log')[0]?.code).toBe('unsafe-url')
  })

  it('waits the requested seconds, within bounds', async () => {
    const { ctx } = context()
    await runClientAction({ type: 'wait', wait: { secondsToWaitFor: 2 } }, DEFAULT_ACTION_RUNNERS, ctx)
    await runClientAction({ type: 'wait', wait: { secondsToWaitFor: 1e9 } }, DEFAULT_ACTION_RUNNERS, ctx)
    expect(vi.mocked(ctx.sleep).mock.calls.map((call) => call[0])).toEqual([2000, MAX_WAIT_SECONDS * 1000])
  })

  it('fails the step on a payload it cannot read (the core reads only the envelope), before acting on it', async () => {
    const { ctx } = context()
    const unreadable = [
      { type: 'wait', wait: { secondsToWaitFor: 'soon' } },
      { type: 'redirect', redirect: { url: 42 } },
      { type: 'scriptToExecute', scriptToExecute: { content: 'x', args: [{ id: 'a', value: { nested: true } }] } },
      { type: 'listenForWebhook', listenForWebhook: { waitId: 7 } },
    ]
    for (const action of unreadable) {
      await expect(
        runClientAction(
          action,
          { ...DEFAULT_ACTION_RUNNERS, scriptToExecute: scriptActionRunner(async () => ({ ok: true, value: '' }) as ScriptOutcome) },
          ctx,
        ),
        action.type,
      ).rejects.toMatchObject({
        kind: 'invalid-response',
      })
    }
    expect(ctx.navigate).not.toHaveBeenCalled()
    expect(ctx.sleep).not.toHaveBeenCalled()
  })

  it('skips an unknown action with a warning, replying empty when a reply is expected', async () => {
    const { ctx, events } = context()
    const outcome = await runClientAction({ type: 'teleport', expectsDedicatedReply: true }, DEFAULT_ACTION_RUNNERS, ctx)
    expect(outcome).toEqual({ reply: '' })
    expect(events.of('flowchat:log')[0]).toMatchObject({ code: 'unknown-action', status: 'warning', source: 'widget' })
  })

  it('lets a page extend the built-in runners without turning the sandboxed scripts off', () => {
    // What the element does with a page's `actions`: its sandbox runner, then the page's own.
    const sandboxed = () => ({ reply: 'sandboxed' })
    const pageActions = { ...DEFAULT_ACTION_RUNNERS, analytics: () => ({}) }
    const runners = { ...DEFAULT_ACTION_RUNNERS, scriptToExecute: sandboxed, ...pageActions }
    expect(runners.scriptToExecute).toBe(sandboxed)
    // Nor can a page change the built-in runners every chat starts from.
    expect(() => Object.assign(DEFAULT_ACTION_RUNNERS, { scriptToExecute: () => ({}) })).toThrow(TypeError)
    expect(Object.keys(DEFAULT_ACTION_RUNNERS)).not.toContain('scriptToExecute')
  })

  it('uses a plugged-in runner and survives one that throws', async () => {
    const { ctx, events } = context()
    const runners = {
      ...DEFAULT_ACTION_RUNNERS,
      scriptToExecute: () => ({ reply: '42' }),
      broken: () => {
        throw new Error('nope')
      },
    }
    expect(await runClientAction({ type: 'scriptToExecute', expectsDedicatedReply: true }, runners, ctx)).toEqual({ reply: '42' })
    expect(await runClientAction({ type: 'broken' }, runners, ctx)).toEqual({})
    expect(events.of('flowchat:log')[0]).toMatchObject({ code: 'action-failed', status: 'error' })
  })
})

describe('scriptActionRunner', () => {
  const scriptAction = (expectsDedicatedReply: boolean) => ({
    type: 'scriptToExecute',
    scriptToExecute: { content: 'return name.toUpperCase()', args: [{ id: 'name', value: 'ada' }] },
    expectsDedicatedReply,
  })
  const runnersWith = (outcome: ScriptOutcome) => {
    const runScript = vi.fn<RunScript>(async () => outcome)
    return { runScript, runners: { ...DEFAULT_ACTION_RUNNERS, scriptToExecute: scriptActionRunner(runScript) } }
  }

  it('hands the script and its args to the sandbox and replies with the result', async () => {
    const { ctx, events } = context()
    const { runScript, runners } = runnersWith({ ok: true, value: { total: 3 } })
    expect(await runClientAction(scriptAction(true), runners, ctx)).toEqual({ reply: '{"total":3}' })
    expect(runScript).toHaveBeenCalledWith({ content: 'return name.toUpperCase()', args: [{ id: 'name', value: 'ada' }] }, ctx.signal)
    expect(events.events).toEqual([])
  })

  it('sends nothing when the flow does not wait for the script', async () => {
    const { ctx } = context()
    const { runners } = runnersWith({ ok: true, value: 'ignored' })
    expect(await runClientAction(scriptAction(false), runners, ctx)).toEqual({})
  })

  it.each([
    ['error', 'script-failed'],
    ['timeout', 'script-timeout'],
    ['too_large', 'script-too-large'],
    ['unavailable', 'script-unavailable'],
  ] as const)('reports a %s failure as %s and replies the empty string', async (reason, code) => {
    const { ctx, events } = context()
    const { runners } = runnersWith({ ok: false, reason, message: 'it went wrong' })
    expect(await runClientAction(scriptAction(true), runners, ctx)).toEqual({ reply: '' })
    expect(events.of('flowchat:log')).toEqual([expect.objectContaining({ code, status: 'error', source: 'widget' })])
    expect(events.of('flowchat:error')).toEqual([
      expect.objectContaining({ code, retryable: false, message: expect.stringContaining('it went wrong') }),
    ])
  })

  it('fails a script action that carries no script without running anything', async () => {
    const { ctx, events } = context()
    const { runScript, runners } = runnersWith({ ok: true, value: 'never' })
    expect(await runClientAction({ type: 'scriptToExecute', expectsDedicatedReply: true }, runners, ctx)).toEqual({ reply: '' })
    expect(runScript).not.toHaveBeenCalled()
    expect(events.of('flowchat:error')[0]?.code).toBe('script-failed')
  })

  it('drops the outcome of a conversation restarted while its script ran', async () => {
    const controller = new AbortController()
    const { ctx, events } = context({ signal: controller.signal })
    const runScript: RunScript = async () => {
      controller.abort()
      return { ok: false, reason: 'unavailable', message: 'The script runner was closed' }
    }
    const runners = { scriptToExecute: scriptActionRunner(runScript) }
    await expect(runClientAction(scriptAction(true), runners, ctx)).rejects.toBeDefined()
    expect(events.events).toEqual([])
  })
})
