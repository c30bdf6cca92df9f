import { SANDBOX_READY_GRACE_MS } from '../../protocol/time-limits'
import { SANDBOX_PROTOCOL_VERSION } from './limits'
import { claimsSandboxProtocol, type FrameMessage, parseFrameMessage, type RunMessage } from './messages'

export class SandboxUnavailableError extends Error {
  constructor(
    message: string,
    /** The page's CSP refused the frame: trying again cannot help until the page changes. */
    readonly blockedByCsp = false,
  ) {
    super(message)
    this.name = 'SandboxUnavailableError'
  }
}

export type RunReply = Exclude<FrameMessage, { type: 'flow-chat-sandbox:ready' }>

export interface SandboxFrameOptions {
  container: ParentNode & Node
  /** The sandbox document: an absolute http(s) URL. */
  url: URL
  loadTimeoutMs: number
  /** Each valid event or result the frame sends once it is ready. */
  onMessage(message: RunReply): void
  /** A message from the frame that is not a valid message of the protocol. */
  onRejected(reason: string): void
}

export interface SandboxFrame {
  /** Resolves once the sandbox announced itself; rejects with a SandboxUnavailableError. */
  readonly ready: Promise<void>
  /** False once destroyed, or once someone took the frame out of the document. */
  readonly alive: boolean
  post(message: RunMessage): void
  destroy(): void
}

/** Directives under which a page's CSP decides whether a frame may load. */
const FRAME_DIRECTIVES = new Set(['frame-src', 'child-src', 'default-src'])

/**
 * The hidden sandbox iframe and the checks on what comes out of it. Only messages whose source is
 * this frame's window and whose origin is opaque ("null", so the sandbox really is in effect) are
 * read, and only through the protocol schema; everything else on the window is left alone.
 */
export function openSandboxFrame(options: SandboxFrameOptions): SandboxFrame {
  const { container, url } = options
  const doc = container.ownerDocument ?? (container as unknown as Document)
  const win = doc.defaultView
  const iframe = doc.createElement('iframe')
  const origin = url.origin
  let isReady = false
  let destroyed = false
  let settle: { resolve(): void; reject(error: SandboxUnavailableError): void } | undefined
  const timers = new Set<ReturnType<typeof setTimeout>>()

  const ready = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject }
  })
  // The runner may destroy a frame nobody awaits any more; its rejection is not an error then.
  ready.catch(() => {})

  const fail = (message: string, blockedByCsp = false) => {
    settle?.reject(new SandboxUnavailableError(message, blockedByCsp))
    settle = undefined
  }
  const later = (ms: number, action: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      action()
    }, ms)
    timers.add(timer)
  }

  const onMessage = (event: MessageEvent) => {
    if (destroyed || event.source === null || event.source !== iframe.contentWindow) return
    if (event.origin !== 'null') {
      options.onRejected(`a message came from origin ${event.origin}, not from an opaque sandbox`)
      return
    }
    const message = parseFrameMessage(event.data)
    if (!message) {
      if (claimsSandboxProtocol(event.data)) options.onRejected('a message did not match the sandbox protocol')
      return
    }
    if (message.type === 'flow-chat-sandbox:ready') {
      if (isReady) return
      if (message.version !== SANDBOX_PROTOCOL_VERSION) {
        fail(`The sandbox at ${url.href} speaks protocol version ${message.version}; this widget needs ${SANDBOX_PROTOCOL_VERSION}`)
        return
      }
      isReady = true
      settle?.resolve()
      settle = undefined
    } else if (isReady) {
      options.onMessage(message)
    }
  }

  const onViolation = (event: Event) => {
    const { effectiveDirective, violatedDirective, blockedURI } = event as Partial<SecurityPolicyViolationEvent>
    const directive = effectiveDirective ?? violatedDirective?.split(' ')[0] ?? ''
    const blocked = blockedURI ?? ''
    if (isReady || !FRAME_DIRECTIVES.has(directive)) return
    if (blocked !== origin && !blocked.startsWith(`${origin}/`)) return
    fail(
      `This page's Content Security Policy does not allow the script sandbox at ${origin}: ` +
        `add "frame-src ${origin}" to it. Flow scripts cannot run until then.`,
      true,
    )
  }

  const onLoad = () => {
    if (isReady) return
    // Chromium reports a frame it refused or could not fetch as loaded too (an error page).
    later(SANDBOX_READY_GRACE_MS, () => {
      if (!isReady) {
        fail(`The page at ${url.href} loaded but is not a working flow-chat sandbox (wrong sandbox URL, or it failed to load)`)
      }
    })
  }

  win?.addEventListener('message', onMessage)
  doc.addEventListener('securitypolicyviolation', onViolation)
  iframe.addEventListener('load', onLoad)
  later(options.loadTimeoutMs, () => {
    if (!isReady) fail(`The script sandbox at ${url.href} did not load within ${options.loadTimeoutMs} ms`)
  })

  // Scripts only: no same-origin (the frame stays an opaque origin), popups, navigation of the
  // page, forms or dialogs.
  iframe.setAttribute('sandbox', 'allow-scripts')
  iframe.setAttribute('referrerpolicy', 'no-referrer')
  iframe.setAttribute('aria-hidden', 'true')
  iframe.setAttribute('tabindex', '-1')
  iframe.title = 'Script sandbox'
  iframe.hidden = true
  // Also inline (CSSOM is not subject to style-src), so no stylesheet that sets display can show it.
  iframe.style.display = 'none'
  iframe.src = url.href
  if (!win) fail('The widget is not in a window, so it has nowhere to run scripts')
  else container.appendChild(iframe)

  return {
    ready,
    get alive() {
      return !destroyed && iframe.isConnected
    },
    post(message) {
      // An opaque origin cannot be named as a target; the frame is addressed by its window instead.
      iframe.contentWindow?.postMessage(message, '*')
    },
    destroy() {
      if (destroyed) return
      destroyed = true
      fail('The script sandbox was closed')
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      win?.removeEventListener('message', onMessage)
      doc.removeEventListener('securitypolicyviolation', onViolation)
      iframe.removeEventListener('load', onLoad)
      iframe.remove()
    },
  }
}
