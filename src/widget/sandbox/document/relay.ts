/*
 * The sandbox document's relay between the widget (the parent window) and one Worker per run.
 *
 * The document is an opaque-origin sandboxed frame that Chromium may keep on the host page's own
 * thread, so nothing heavy happens here: the script runs in the Worker, this code only checks and
 * forwards messages. The Worker talks back over a private MessagePort whose other end no script
 * can reach; whatever the Worker sends is checked again here and rebuilt field by field before it
 * goes to the parent, so only messages of this protocol ever leave the frame.
 */
import { isNetworkVariant, NO_NETWORK_POLICY } from '../../../protocol/sandbox-policy'
import { EVENT_NAME_PATTERN, MAX_FAILURE_MESSAGE_CHARS, MESSAGE_PREFIX, SANDBOX_PROTOCOL_VERSION } from '../limits'
import { parseRunMessage, type RunMessage } from '../messages'
import type { WorkerReply } from './worker'

/** The Worker's bundled source (worker.ts), put here by the build. */
declare const FLOW_CHAT_SANDBOX_WORKER: string

type Limits = RunMessage['limits']
interface ActiveRun {
  runId: string
  limits: Limits
  worker: Worker
  port: MessagePort
  events: number
}
type ResultFields = { status: 'ok'; value?: string } | { status: 'error' | 'too_large' | 'unavailable'; message: string }

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '')

function relay(): void {
  if (parent === window) return
  // Served without its header, the document's own policy still allows the network variant's
  // requests; unless this is that variant, no request is allowed at all, before any Worker starts.
  const network = isNetworkVariant(location.search)
  if (!network) {
    const policy = document.createElement('meta')
    policy.httpEquiv = 'Content-Security-Policy'
    policy.content = NO_NETWORK_POLICY
    document.head.append(policy)
  }

  const workerUrl = URL.createObjectURL(new Blob([FLOW_CHAT_SANDBOX_WORKER], { type: 'text/javascript' }))
  let active: ActiveRun | null = null
  const toParent = (message: object) => parent.postMessage(message, '*')

  function settle(run: ActiveRun, result: ResultFields) {
    if (active !== run) return
    active = null
    run.worker.terminate()
    run.port.close()
    toParent({ type: `${MESSAGE_PREFIX}result`, runId: run.runId, ...result })
  }

  function fromWorker(run: ActiveRun, data: WorkerReply | null) {
    if (active !== run || typeof data !== 'object' || data === null) return
    if (data.type === 'event') {
      const valid =
        typeof data.name === 'string' &&
        EVENT_NAME_PATTERN.test(data.name) &&
        typeof data.payload === 'string' &&
        data.payload.length <= run.limits.eventChars
      if (!valid || run.events >= run.limits.events) return
      run.events++
      toParent({ type: `${MESSAGE_PREFIX}event`, runId: run.runId, name: data.name, payload: data.payload })
      return
    }
    if (data.type !== 'result') return
    if (data.status === 'ok') {
      if (data.value === undefined) settle(run, { status: 'ok' })
      else if (typeof data.value !== 'string') settle(run, { status: 'error', message: 'The sandbox produced a malformed result' })
      else if (data.value.length > run.limits.resultChars) {
        settle(run, { status: 'too_large', message: `The result is over the limit of ${run.limits.resultChars} characters as JSON` })
      } else settle(run, { status: 'ok', value: data.value })
    } else if (data.status === 'error' || data.status === 'too_large') {
      settle(run, { status: data.status, message: text(data.message, MAX_FAILURE_MESSAGE_CHARS) || 'The script failed' })
    }
  }

  function start(message: RunMessage) {
    const channel = new MessageChannel()
    let worker: Worker
    try {
      worker = new Worker(workerUrl, { name: 'flow-chat-script' })
    } catch (error) {
      const reason = text(`The sandbox could not start a worker: ${String(error)}`, MAX_FAILURE_MESSAGE_CHARS)
      toParent({ type: `${MESSAGE_PREFIX}result`, runId: message.runId, status: 'unavailable', message: reason })
      return
    }
    const run: ActiveRun = { runId: message.runId, limits: message.limits, worker, port: channel.port1, events: 0 }
    active = run
    channel.port1.onmessage = (event: MessageEvent<WorkerReply | null>) => fromWorker(run, event.data)
    // An error nobody caught inside the Worker (thrown from a timer, say) ends the run with it.
    worker.onerror = (event) => {
      event.preventDefault()
      settle(run, { status: 'error', message: text(event.message || 'The script failed', MAX_FAILURE_MESSAGE_CHARS) })
    }
    worker.postMessage(
      {
        content: message.content,
        names: message.names,
        values: message.values,
        // The strict document never lets a run ask for the network, whatever the message says.
        allowNetwork: message.allowNetwork && network,
        limits: message.limits,
        page: message.page,
      },
      [channel.port2],
    )
  }

  addEventListener('message', (event) => {
    const run = event.source === parent ? parseRunMessage(event.data) : undefined
    if (!run) return
    if (active !== null) {
      toParent({ type: `${MESSAGE_PREFIX}result`, runId: run.runId, status: 'error', message: 'Another script is still running' })
      return
    }
    start(run)
  })

  toParent({ type: `${MESSAGE_PREFIX}ready`, version: SANDBOX_PROTOCOL_VERSION })
}

relay()
