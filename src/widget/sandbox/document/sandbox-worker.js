/*
 * The Worker that runs one flow script (one Worker per run, so nothing a script leaves behind
 * reaches the next one). sandbox.js starts it from this function's own source text through a
 * blob: URL, the only kind of worker an opaque-origin document may start, so the function must not
 * refer to anything outside itself. Loading this file into the sandbox document only defines it.
 */
// eslint-disable-next-line no-unused-vars
function flowChatSandboxWorker() {
  'use strict'

  // The script shares this global scope and may replace any built-in, so everything the bootstrap
  // still needs once the script has started is captured first.
  const apply = Reflect.apply
  const deleteProperty = Reflect.deleteProperty
  const defineProperty = Object.defineProperty
  const getPrototypeOf = Object.getPrototypeOf
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
  const AsyncFunction = getPrototypeOf(async function () {}).constructor
  const self_ = self

  const EVENT_NAME = /^[A-Za-z][\w.:-]{0,63}$/
  const MAX_FAILURE_CHARS = 500
  /** Request APIs: gone unless the embedder allowed network access for this runner. */
  const NETWORK = ['fetch', 'XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'EventSource', 'WebTransport']
  /** Code loading, storage and every other way to talk to anything: always gone. */
  const ALWAYS = [
    'importScripts', 'Worker', 'SharedWorker', 'indexedDB', 'caches', 'BroadcastChannel',
    'postMessage', 'close', 'requestFileSystem', 'webkitRequestFileSystem',
  ]

  const clip = (text) => (text.length > MAX_FAILURE_CHARS ? apply(sliceText, text, [0, MAX_FAILURE_CHARS]) + '…' : text)

  /** A readable one-line description of anything a script throws, never throwing itself. */
  function describe(error) {
    try {
      if (typeof error === 'object' && error !== null && typeof error.message === 'string') {
        const name = typeof error.name === 'string' && error.name !== '' ? error.name + ': ' : ''
        return clip(name + error.message)
      }
      return clip(toText(error))
    } catch {
      return 'The script failed with a value that cannot be described'
    }
  }

  /** Removes `name` from the global object and its prototypes, leaving a stub that says why. */
  function remove(name, reason) {
    for (let target = self_; target !== null; target = getPrototypeOf(target)) {
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
      throw new TypeErrorType(name + ' is not available to flow scripts: ' + reason)
    }
    const stub = new ProxyType(function () { refuse() }, { get: refuse })
    defineProperty(self_, name, { value: stub, writable: false, configurable: false, enumerable: false })
  }

  self_.onmessage = (event) => {
    self_.onmessage = null
    const port = event.ports[0]
    const run = event.data
    const send = (message) => apply(portPost, port, [message])
    let settled = false
    const finish = (message) => {
      if (settled) return
      settled = true
      send(message)
    }

    if (!run.allowNetwork) {
      for (const name of NETWORK) remove(name, 'this site has not allowed network access for scripts')
    }
    for (const name of ALWAYS) remove(name, 'scripts run isolated, and emitHostEvent(name, payload) is their one channel to the page')

    let events = 0
    const emitHostEvent = function emitHostEvent(name, payload) {
      if (settled) throw new TypeErrorType('emitHostEvent: the script has already finished')
      if (typeof name !== 'string' || !apply(testPattern, EVENT_NAME, [name])) {
        throw new TypeErrorType('emitHostEvent: the name must be 1 to 64 letters, digits, "_", ".", ":" or "-", starting with a letter')
      }
      const json = stringify(payload === undefined ? null : payload)
      if (typeof json !== 'string') throw new TypeErrorType('emitHostEvent: the payload must be a JSON value')
      if (json.length > run.limits.eventChars) {
        throw new RangeErrorType('emitHostEvent: the payload is over ' + run.limits.eventChars + ' characters as JSON')
      }
      if (events >= run.limits.events) {
        throw new RangeErrorType('emitHostEvent: a script may emit at most ' + run.limits.events + ' events')
      }
      events++
      send({ type: 'event', name, payload: json })
    }
    defineProperty(self_, 'emitHostEvent', { value: emitHostEvent, writable: false, configurable: false, enumerable: true })

    const succeed = (value) => {
      let json
      try {
        json = stringify(value)
      } catch (error) {
        finish({ type: 'result', status: 'error', message: clip('The result is not a JSON value: ' + describe(error)) })
        return
      }
      if (typeof json !== 'string') finish({ type: 'result', status: 'ok' })
      else if (json.length > run.limits.resultChars) {
        finish({ type: 'result', status: 'too_large', message: 'The result is ' + json.length + ' characters as JSON, over the limit of ' + run.limits.resultChars })
      } else finish({ type: 'result', status: 'ok', value: json })
    }
    const fail = (error) => finish({ type: 'result', status: 'error', message: describe(error) })
    // An error nobody caught (thrown from a timer, say) ends the run here, clipped, and is marked
    // handled so that it is not reported, unclipped, to the frame as well.
    self_.addEventListener('error', (event) => {
      apply(preventDefault, event, [])
      finish({ type: 'result', status: 'error', message: clip('Uncaught ' + describe(event.error !== undefined ? event.error : event.message)) })
    })

    let script
    let values
    try {
      values = parseJson(run.values)
      script = new AsyncFunction(...run.names, run.content)
    } catch (error) {
      fail(error)
      return
    }
    // A plain call, without a receiver; the parameters are the args ids, in order.
    apply(then, apply(then, resolved, [() => apply(script, undefined, values)]), [succeed, fail])
  }
}
