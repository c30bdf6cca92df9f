/*
 * The Worker that runs one flow script (one Worker per run, so nothing a script leaves behind
 * reaches the next one). The build bundles this file on its own and relay.ts starts it from that
 * text through a blob: URL, the only kind of worker an opaque-origin document may start.
 */
import { EVENT_NAME_PATTERN, MAX_SCRIPT_FAILURE_CHARS } from '../limits'
import type { PageAddress } from '../page-address'

/** What relay.ts hands over, with the port the run talks back on. */
export interface WorkerRun {
  content: string
  names: string[]
  /** The argument values as a JSON array. */
  values: string
  allowNetwork: boolean
  limits: { resultChars: number; eventChars: number; events: number }
  page: PageAddress
}

/** What the Worker says on its port. */
export type WorkerReply =
  | { type: 'event'; name: string; payload: string }
  | { type: 'result'; status: 'ok'; value?: string }
  | { type: 'result'; status: 'error' | 'too_large'; message: string }

/**
 * Request APIs: gone unless the embedder allowed network access for this run (the font APIs
 * fetch too, whatever a policy says about fonts).
 */
const NETWORK = ['fetch', 'XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'EventSource', 'WebTransport', 'FontFace', 'fonts']
/** Code loading, storage and every other way to talk to anything: always gone. */
const ALWAYS = [
  'importScripts',
  'Worker',
  'SharedWorker',
  'indexedDB',
  'caches',
  'BroadcastChannel',
  'postMessage',
  'close',
  'requestFileSystem',
  'webkitRequestFileSystem',
]

// The script shares this global scope and may replace any built-in, so everything the bootstrap
// still needs once the script has started is captured first.
const scope = globalThis as unknown as Record<string, unknown> & {
  onmessage: ((event: MessageEvent<WorkerRun>) => void) | null
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void
}
const apply = Reflect.apply
const deleteProperty = Reflect.deleteProperty
const defineProperty = Object.defineProperty
const getPrototypeOf = Object.getPrototypeOf
const freeze = Object.freeze
const hasOwn = Object.prototype.hasOwnProperty
const stringify = JSON.stringify
const parseJson = JSON.parse
const toText = String
const sliceText = String.prototype.slice
const testPattern = RegExp.prototype.test
const then = Promise.prototype.then
const resolved = Promise.resolve()
const portPost = MessagePort.prototype.postMessage
const preventDefault = Event.prototype.preventDefault
const TypeErrorType = TypeError
const RangeErrorType = RangeError
const ProxyType = Proxy
const AsyncFunction = getPrototypeOf(async () => {}).constructor as new (...source: string[]) => (...args: unknown[]) => Promise<unknown>

const clip = (text: string) =>
  text.length > MAX_SCRIPT_FAILURE_CHARS ? `${apply(sliceText, text, [0, MAX_SCRIPT_FAILURE_CHARS]) as string}…` : text

/** A readable one-line description of anything a script throws, never throwing itself. */
function describe(error: unknown): string {
  try {
    if (typeof error === 'object' && error !== null && typeof (error as Error).message === 'string') {
      const { name } = error as Error
      return clip((typeof name === 'string' && name !== '' ? `${name}: ` : '') + (error as Error).message)
    }
    return clip(toText(error))
  } catch {
    return 'The script failed with a value that cannot be described'
  }
}

/** Removes `name` from the global object and its prototypes, leaving a stub that says why. */
function remove(name: string, reason: string): void {
  for (let target: object | null = scope; target !== null; target = getPrototypeOf(target) as object | null) {
    if (apply(hasOwn, target, [name]) && !deleteProperty(target, name)) {
      try {
        defineProperty(target, name, { value: undefined })
      } catch {
        // Not configurable and not writable: nothing a script could use either way.
      }
    }
  }
  // Calling it, constructing it or reading any of its properties (`indexedDB.open`) all explain.
  const refuse = () => {
    throw new TypeErrorType(`${name} is not available to flow scripts: ${reason}`)
  }
  // biome-ignore lint/complexity/useArrowFunction: a function target, so that `new stub()` refuses too.
  const target = function () {
    refuse()
  }
  const stub = new ProxyType(target, { get: refuse })
  defineProperty(scope, name, { value: stub, writable: false, configurable: false, enumerable: false })
}

scope.onmessage = (event) => {
  scope.onmessage = null
  const port = event.ports[0]!
  const run = event.data
  const send = (message: WorkerReply) => apply(portPost, port, [message])
  let settled = false
  const finish = (message: WorkerReply) => {
    if (settled) return
    settled = true
    send(message)
  }

  if (!run.allowNetwork) {
    for (const name of NETWORK) remove(name, 'this site has not allowed network access for scripts')
  }
  for (const name of ALWAYS) remove(name, 'scripts run isolated, and emitHostEvent(name, payload) is their one channel to the page')

  let events = 0
  const emitHostEvent = function emitHostEvent(name: unknown, payload: unknown) {
    if (settled) throw new TypeErrorType('emitHostEvent: the script has already finished')
    if (typeof name !== 'string' || !apply(testPattern, EVENT_NAME_PATTERN, [name])) {
      throw new TypeErrorType('emitHostEvent: the name must be 1 to 64 letters, digits, "_", ".", ":" or "-", starting with a letter')
    }
    const json: unknown = stringify(payload === undefined ? null : payload)
    if (typeof json !== 'string') throw new TypeErrorType('emitHostEvent: the payload must be a JSON value')
    if (json.length > run.limits.eventChars) {
      throw new RangeErrorType(`emitHostEvent: the payload is over ${run.limits.eventChars} characters as JSON`)
    }
    if (events >= run.limits.events) {
      throw new RangeErrorType(`emitHostEvent: a script may emit at most ${run.limits.events} events`)
    }
    events++
    send({ type: 'event', name, payload: json })
  }
  defineProperty(scope, 'emitHostEvent', { value: emitHostEvent, writable: false, configurable: false, enumerable: true })
  // The host page's address, read-only, in place of the Worker's own `blob:` one (also as `self.location`).
  const page = run.page
  const href = page.href
  const location = freeze({ ...page, toString: () => href })
  defineProperty(scope, 'location', { value: location, writable: false, configurable: false, enumerable: true })
  // Scripts written for the page read the address as `document.location` (or `document.URL`,
  // `document.referrer`) as often as `location`: that much of a document, and nothing else of it.
  const pageDocument = new ProxyType(freeze({ location, URL: href, documentURI: href, referrer: page.referrer }), {
    get(target, name) {
      if (typeof name !== 'string' || apply(hasOwn, target, [name]) || name === 'then' || name === 'toJSON') {
        return (target as Record<PropertyKey, unknown>)[name]
      }
      throw new TypeErrorType(
        `document.${name} is not available to flow scripts: they run isolated from the page, which they see only as document.location`,
      )
    },
  })
  defineProperty(scope, 'document', { value: pageDocument, writable: false, configurable: false, enumerable: true })

  const succeed = (value: unknown) => {
    let json: unknown
    try {
      json = stringify(value)
    } catch (error) {
      finish({ type: 'result', status: 'error', message: clip(`The result is not a JSON value: ${describe(error)}`) })
      return
    }
    if (typeof json !== 'string') finish({ type: 'result', status: 'ok' })
    else if (json.length > run.limits.resultChars) {
      finish({
        type: 'result',
        status: 'too_large',
        message: `The result is ${json.length} characters as JSON, over the limit of ${run.limits.resultChars}`,
      })
    } else finish({ type: 'result', status: 'ok', value: json })
  }
  const fail = (error: unknown) => finish({ type: 'result', status: 'error', message: describe(error) })
  // An error nobody caught (thrown from a timer, say) ends the run here, clipped, and is marked
  // handled so that it is not reported, unclipped, to the frame as well.
  scope.addEventListener('error', (errorEvent) => {
    apply(preventDefault, errorEvent, [])
    finish({
      type: 'result',
      status: 'error',
      message: clip(`Uncaught ${describe(errorEvent.error !== undefined ? errorEvent.error : errorEvent.message)}`),
    })
  })

  let script: (...args: unknown[]) => Promise<unknown>
  let values: unknown[]
  try {
    values = parseJson(run.values) as unknown[]
    script = new AsyncFunction(...run.names, run.content)
  } catch (error) {
    fail(error)
    return
  }
  // A plain call, without a receiver; the parameters are the args ids, in order.
  apply(then, apply(then, resolved, [() => apply(script, undefined, values)]), [succeed, fail])
}
