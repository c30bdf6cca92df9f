import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { ScriptRunner, ScriptRunnerOptions } from '../../../src/widget/sandbox/index'
import { recordEvents } from '../chat/fake-client'

const made: {
  options: ScriptRunnerOptions
  runner: ScriptRunner & { run: ReturnType<typeof vi.fn>; dispose: ReturnType<typeof vi.fn> }
}[] = []

vi.mock('../../../src/widget/sandbox/index', async (original) => ({
  ...(await original<typeof import('../../../src/widget/sandbox/index')>()),
  createScriptRunner: (options: ScriptRunnerOptions) => {
    const runner = { run: vi.fn(async () => ({ ok: true as const, value: 'done' })), dispose: vi.fn() }
    made.push({ options, runner })
    return runner
  },
}))

const { createScriptHost } = await import('../../../src/widget/element/scripts')

const script = { content: 'return 1', args: [] }

function setup() {
  const root = document.createElement('div').attachShadow({ mode: 'open' })
  const events = recordEvents()
  const settings = {
    sandboxUrl: 'https://flows.example/sandbox/v1/sandbox.html',
    scriptTimeout: 500,
    allowScriptNetwork: false,
    pageAddress: 'shared',
  }
  const host = createScriptHost(root, events.emit, settings)
  return { root, events, settings, host }
}

beforeEach(() => {
  made.length = 0
})

describe('createScriptHost', () => {
  it('loads no sandbox until the first script, then reuses it within the conversation', async () => {
    const { root, host } = setup()
    expect(made).toHaveLength(0)
    const signal = new AbortController().signal
    expect(await host.run(script, signal)).toEqual({ ok: true, value: 'done' })
    await host.run(script, signal)
    expect(made).toHaveLength(1)
    expect(made[0]!.options).toMatchObject({
      container: root,
      sandboxUrl: 'https://flows.example/sandbox/v1/sandbox.html',
      timeoutMs: 500,
      allowNetwork: false,
    })
    expect(made[0]!.runner.run).toHaveBeenCalledTimes(2)
  })

  it('removes the sandbox when the conversation ends, and the next one gets a fresh one with current settings', async () => {
    const { host, settings } = setup()
    const first = new AbortController()
    await host.run(script, first.signal)
    first.abort()
    expect(made[0]!.runner.dispose).toHaveBeenCalledTimes(1)
    settings.allowScriptNetwork = true
    await host.run(script, new AbortController().signal)
    expect(made).toHaveLength(2)
    expect(made[1]!.options.allowNetwork).toBe(true)
  })

  it('gives scripts the page\'s address unless the site hides it (page-address="hidden")', async () => {
    const { host, settings } = setup()
    const first = new AbortController()
    await host.run(script, first.signal)
    expect(made[0]!.options.pageAddress?.()).toMatchObject({ href: location.href, origin: location.origin, search: location.search })
    first.abort()
    Object.assign(settings, { pageAddress: 'hidden' })
    await host.run(script, new AbortController().signal)
    expect(made[1]!.options.pageAddress).toBeUndefined()
  })

  it('runs nothing for a conversation already gone', async () => {
    const { host } = setup()
    const controller = new AbortController()
    controller.abort()
    expect(await host.run(script, controller.signal)).toMatchObject({ ok: false, reason: 'unavailable' })
    expect(made).toHaveLength(0)
  })

  it('turns script events and sandbox logs into widget events', async () => {
    const { host, events } = setup()
    await host.run(script, new AbortController().signal)
    const { onHostEvent, onLog } = made[0]!.options
    onHostEvent!('analytics', { step: 2 })
    onLog!({
      level: 'error',
      code: 'sandbox-blocked-by-csp',
      message: 'add "frame-src https://flows.example"',
      details: { sandboxUrl: 'x' },
    })
    expect(events.of('flowchat:script-event')).toEqual([{ name: 'analytics', payload: { step: 2 } }])
    expect(events.of('flowchat:log')).toEqual([
      {
        status: 'error',
        description: 'add "frame-src https://flows.example"',
        details: { sandboxUrl: 'x' },
        source: 'widget',
        code: 'sandbox-blocked-by-csp',
      },
    ])
  })

  it('dispose() removes the sandbox at once', async () => {
    const { host } = setup()
    await host.run(script, new AbortController().signal)
    host.dispose()
    expect(made[0]!.runner.dispose).toHaveBeenCalled()
  })
})
