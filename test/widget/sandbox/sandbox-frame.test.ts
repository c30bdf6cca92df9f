import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SANDBOX_READY_GRACE_MS as READY_GRACE_MS } from '../../../src/protocol/time-limits'
import type { RunMessage } from '../../../src/widget/sandbox/messages'
import { openSandboxFrame, type SandboxFrame, SandboxUnavailableError } from '../../../src/widget/sandbox/sandbox-frame'
import { fakeFrameWindows, quietFrameLoading, reportViolation, SANDBOX_ORIGIN, SANDBOX_URL, useShadowContainer } from './frame-harness'

const READY = { type: 'flow-chat-sandbox:ready', version: 1 }
const RUN_ID = '0123456789abcdef0123456789abcdef'
const EVENT = { type: 'flow-chat-sandbox:event', runId: RUN_ID, name: 'track', payload: '{}' }

let page: ReturnType<typeof useShadowContainer>
let frame: SandboxFrame
let received: unknown[]
let rejected: string[]

function open(loadTimeoutMs = 15_000) {
  received = []
  rejected = []
  frame = openSandboxFrame({
    container: page.root,
    url: new URL(SANDBOX_URL),
    loadTimeoutMs,
    onMessage: (message) => received.push(message),
    onRejected: (reason) => rejected.push(reason),
  })
  return frame
}

async function failure(promise: Promise<unknown>): Promise<SandboxUnavailableError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SandboxUnavailableError)
  return error as SandboxUnavailableError
}

beforeEach(() => {
  quietFrameLoading()
  fakeFrameWindows()
  page = useShadowContainer()
})
afterEach(() => {
  frame?.destroy()
  page.remove()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('the sandbox frame', () => {
  it('is a hidden, scripts-only sandboxed iframe in the given container', () => {
    open()
    const iframe = page.frame()!
    expect(iframe.getAttribute('sandbox')).toBe('allow-scripts')
    expect(iframe.src).toBe(SANDBOX_URL)
    expect(iframe.hidden).toBe(true)
    expect(iframe.getAttribute('aria-hidden')).toBe('true')
    expect(iframe.getAttribute('tabindex')).toBe('-1')
    expect(iframe.getAttribute('referrerpolicy')).toBe('no-referrer')
    expect(document.querySelector('iframe')).toBeNull()
  })

  it('becomes ready when its own opaque-origin window announces the protocol version', async () => {
    open()
    page.fromFrame(READY)
    await expect(frame.ready).resolves.toBeUndefined()
    expect(frame.alive).toBe(true)
  })

  it('ignores messages from any other window, and refuses its own window without an opaque origin', async () => {
    vi.useFakeTimers()
    open(1_000)
    const other = document.createElement('iframe')
    document.body.append(other)
    page.fromFrame(READY, { source: window })
    page.fromFrame(READY, { source: other.contentWindow })
    page.fromFrame(READY, { source: null })
    page.fromFrame(READY, { origin: SANDBOX_ORIGIN })
    expect(rejected).toEqual([`a message came from origin ${SANDBOX_ORIGIN}, not from an opaque sandbox`])
    vi.advanceTimersByTime(1_000)
    expect((await failure(frame.ready)).message).toBe(`The script sandbox at ${SANDBOX_URL} did not load within 1000 ms`)
    other.remove()
  })

  it('passes on valid run messages only once ready, and reports malformed ones that claim the protocol', async () => {
    open()
    page.fromFrame(EVENT)
    page.fromFrame(READY)
    await frame.ready
    page.fromFrame(EVENT)
    page.fromFrame({ ...EVENT, name: '<b>' })
    page.fromFrame({ type: 'some-other-library', payload: 1 })
    page.fromFrame(READY)
    expect(received).toEqual([EVENT])
    expect(rejected).toEqual(['a message did not match the sandbox protocol'])
  })

  it('fails when the document speaks another protocol version', async () => {
    open()
    page.fromFrame({ ...READY, version: 2 })
    expect((await failure(frame.ready)).message).toBe(`The sandbox at ${SANDBOX_URL} speaks protocol version 2; this widget needs 1`)
  })

  it("fails at once, saying what to add, when the page's CSP refuses the frame", async () => {
    open()
    reportViolation('img-src', SANDBOX_ORIGIN)
    reportViolation('frame-src', 'https://elsewhere.test')
    reportViolation('frame-src', 'https://service.test.evil.example')
    reportViolation('frame-src', SANDBOX_ORIGIN)
    const error = await failure(frame.ready)
    expect(error.blockedByCsp).toBe(true)
    expect(error.message).toBe(
      `This page's Content Security Policy does not allow the script sandbox at ${SANDBOX_ORIGIN}: ` +
        `add "frame-src ${SANDBOX_ORIGIN}" to it. Flow scripts cannot run until then.`,
    )
  })

  it('recognises a refusal reported with the full URL or under child-src and default-src', async () => {
    for (const [directive, blocked] of [
      ['child-src', SANDBOX_URL],
      ['default-src', SANDBOX_ORIGIN],
    ]) {
      open()
      reportViolation(directive!, blocked!)
      expect((await failure(frame.ready)).blockedByCsp).toBe(true)
      frame.destroy()
    }
  })

  it('fails when the document loaded but never announced itself', async () => {
    vi.useFakeTimers()
    open()
    page.frame()!.dispatchEvent(new Event('load'))
    vi.advanceTimersByTime(READY_GRACE_MS)
    const error = await failure(frame.ready)
    expect(error.blockedByCsp).toBe(false)
    expect(error.message).toBe(
      `The page at ${SANDBOX_URL} loaded but is not a working flow-chat sandbox (wrong sandbox URL, or it failed to load)`,
    )
  })

  it('accepts a ready message that arrives shortly after the load event', async () => {
    vi.useFakeTimers()
    open()
    page.frame()!.dispatchEvent(new Event('load'))
    vi.advanceTimersByTime(READY_GRACE_MS - 1)
    page.fromFrame(READY)
    vi.advanceTimersByTime(60_000)
    await expect(frame.ready).resolves.toBeUndefined()
  })

  it('posts run messages to the frame window, addressed to any origin since the frame has none', async () => {
    open()
    const posts = page.watchPosts()
    const message = { type: 'flow-chat-sandbox:run', runId: RUN_ID } as RunMessage
    frame.post(message)
    expect(posts).toHaveBeenCalledWith(message, '*')
  })

  it('on destroy, removes the frame, stops listening and fails a pending ready', async () => {
    open()
    const iframe = page.frame()!
    page.fromFrame(READY)
    await frame.ready
    const source = iframe.contentWindow
    frame.destroy()
    expect(page.frame()).toBeNull()
    expect(frame.alive).toBe(false)
    page.fromFrame(EVENT, { source })
    expect(received).toEqual([])

    open()
    frame.destroy()
    expect((await failure(frame.ready)).message).toBe('The script sandbox was closed')
  })

  it('is no longer alive once something else takes it out of the document', async () => {
    open()
    page.fromFrame(READY)
    await frame.ready
    page.frame()!.remove()
    expect(frame.alive).toBe(false)
  })
})
