import nodeConsole from 'node:console'
import { vi } from 'vitest'

export const SANDBOX_URL = 'https://service.test/sandbox/v1/sandbox.html'
export const SANDBOX_ORIGIN = 'https://service.test'

/**
 * happy-dom does not load frames, so tests play the sandbox document: they dispatch the messages it
 * would send on the page's window and read what the widget posted to the frame's window.
 */
export function useShadowContainer() {
  const host = document.createElement('div')
  document.body.append(host)
  const root = host.attachShadow({ mode: 'closed' })
  const frame = () => root.querySelector('iframe')
  const contentWindow = () => {
    const window = frame()?.contentWindow
    if (!window) throw new Error('no sandbox frame')
    return window
  }
  return {
    root,
    frame,
    /** A message as if the sandbox document (or whoever `source` is) had posted it. */
    fromFrame(data: unknown, { source = contentWindow() as MessageEventSource | null, origin = 'null' } = {}) {
      window.dispatchEvent(new MessageEvent('message', { data, source, origin }))
    },
    /** What the widget posts to the frame's window from now on. */
    watchPosts() {
      return vi.spyOn(contentWindow(), 'postMessage').mockImplementation(() => {})
    },
    remove: () => host.remove(),
  }
}

/** The page reports a refused frame this way (happy-dom has no SecurityPolicyViolationEvent). */
export function reportViolation(effectiveDirective: string, blockedURI: string) {
  const event = Object.assign(new Event('securitypolicyviolation', { bubbles: true, composed: true }), { effectiveDirective, blockedURI })
  document.dispatchEvent(event)
}

/**
 * happy-dom reports every frame it does not load on the process console (which vitest does not
 * capture); for these frames that is expected, so only those lines are kept out of the output.
 */
export function quietFrameLoading() {
  const original = nodeConsole.error.bind(nodeConsole)
  return vi.spyOn(nodeConsole, 'error').mockImplementation((...args: unknown[]) => {
    if (String(args[0]).includes('Iframe page loading is disabled')) return
    original(...args)
  })
}

/**
 * happy-dom gives a frame it does not load no window; each connected frame gets a stand-in here,
 * which is all the widget needs of it: an identity to compare message sources with, and postMessage.
 */
export function fakeFrameWindows() {
  const windows = new WeakMap<HTMLIFrameElement, Window>()
  /** Every message the widget posted to any frame, in order. */
  const posted: unknown[] = []
  vi.spyOn(HTMLIFrameElement.prototype, 'contentWindow', 'get').mockImplementation(function (this: HTMLIFrameElement) {
    if (!this.isConnected) return null
    let window = windows.get(this)
    if (!window) {
      window = { postMessage: (message: unknown) => posted.push(message) } as unknown as Window
      windows.set(this, window)
    }
    return window
  })
  return { posted }
}
