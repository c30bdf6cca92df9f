/*
 * The sandbox document's relay between the widget (the parent window) and one Worker per run.
 *
 * The document is an opaque-origin sandboxed frame that Chromium may keep on the host page's own
 * thread, so nothing heavy happens here: the script runs in the Worker, this code only checks and
 * forwards messages. The Worker talks back over a private MessagePort whose other end no script
 * can reach; whatever the Worker sends is checked again here and rebuilt field by field before it
 * goes to the parent, so only messages of this protocol ever leave the frame.
 */
/* global flowChatSandboxWorker */
;(function () {
  'use strict'

  const PROTOCOL_VERSION = 1
  const PREFIX = 'flow-chat-sandbox:'
  const RUN_ID = /^[0-9a-f]{32}$/
  const EVENT_NAME = /^[A-Za-z][\w.:-]{0,63}$/
  const ARG_NAME = /^[A-Za-z_$][\w$]*$/
  const MAX_FAILURE_CHARS = 1000
  /** Upper bounds on what the parent may ask for: a run message cannot lift the frame's own caps. */
  const CEILINGS = { resultChars: 1_000_000, eventChars: 262_144, events: 1000 }

  if (parent === window) return

  const workerUrl = URL.createObjectURL(
    new Blob(['(' + flowChatSandboxWorker.toString() + ')()'], { type: 'text/javascript' }),
  )
  let active = null

  const toParent = (message) => parent.postMessage(message, '*')
  const text = (value, max) => (typeof value === 'string' ? value.slice(0, max) : '')
  const withinCeiling = (value, ceiling) => Number.isInteger(value) && value > 0 && value <= ceiling

  function isRun(data) {
    return (
      typeof data === 'object' && data !== null && data.type === PREFIX + 'run' &&
      typeof data.runId === 'string' && RUN_ID.test(data.runId) &&
      typeof data.content === 'string' && typeof data.values === 'string' &&
      typeof data.allowNetwork === 'boolean' &&
      Array.isArray(data.names) && data.names.every((name) => typeof name === 'string' && ARG_NAME.test(name)) &&
      typeof data.limits === 'object' && data.limits !== null &&
      Object.keys(CEILINGS).every((key) => withinCeiling(data.limits[key], CEILINGS[key]))
    )
  }

  function settle(run, result) {
    if (active !== run) return
    active = null
    run.worker.terminate()
    run.port.close()
    toParent({ type: PREFIX + 'result', runId: run.runId, ...result })
  }

  function fromWorker(run, data) {
    if (active !== run || typeof data !== 'object' || data === null) return
    if (data.type === 'event') {
      const valid = typeof data.name === 'string' && EVENT_NAME.test(data.name) &&
        typeof data.payload === 'string' && data.payload.length <= run.limits.eventChars
      if (!valid || run.events >= run.limits.events) return
      run.events++
      toParent({ type: PREFIX + 'event', runId: run.runId, name: data.name, payload: data.payload })
      return
    }
    if (data.type !== 'result') return
    if (data.status === 'ok') {
      if (data.value === undefined) settle(run, { status: 'ok' })
      else if (typeof data.value !== 'string') settle(run, { status: 'error', message: 'The sandbox produced a malformed result' })
      else if (data.value.length > run.limits.resultChars) {
        settle(run, { status: 'too_large', message: 'The result is over the limit of ' + run.limits.resultChars + ' characters as JSON' })
      } else settle(run, { status: 'ok', value: data.value })
    } else if (data.status === 'error' || data.status === 'too_large') {
      settle(run, { status: data.status, message: text(data.message, MAX_FAILURE_CHARS) || 'The script failed' })
    }
  }

  function start(message) {
    const channel = new MessageChannel()
    let worker
    try {
      worker = new Worker(workerUrl, { name: 'flow-chat-script' })
    } catch (error) {
      toParent({
        type: PREFIX + 'result', runId: message.runId, status: 'unavailable',
        message: text('The sandbox could not start a worker: ' + String(error), MAX_FAILURE_CHARS),
      })
      return
    }
    const run = { runId: message.runId, limits: message.limits, worker, port: channel.port1, events: 0 }
    active = run
    channel.port1.onmessage = (event) => fromWorker(run, event.data)
    // An error nobody caught inside the Worker (thrown from a timer, say) ends the run with it.
    worker.onerror = (event) => {
      event.preventDefault()
      settle(run, { status: 'error', message: text(event.message || 'The script failed', MAX_FAILURE_CHARS) })
    }
    worker.postMessage(
      {
        content: message.content,
        names: message.names,
        values: message.values,
        allowNetwork: message.allowNetwork,
        limits: message.limits,
      },
      [channel.port2],
    )
  }

  addEventListener('message', (event) => {
    if (event.source !== parent || !isRun(event.data)) return
    if (active !== null) {
      toParent({ type: PREFIX + 'result', runId: event.data.runId, status: 'error', message: 'Another script is still running' })
      return
    }
    start(event.data)
  })

  toParent({ type: PREFIX + 'ready', version: PROTOCOL_VERSION })
})()
