import { type Continuation, follow } from '../../core/continuation'
import { EngineError } from '../../core/engine-error'
import { asFields } from '../../core/field-readers'
import type { BlockLocation } from '../../core/flow-index'
import type { HttpCallFailure } from '../../core/ports'
import type { Step } from '../../core/step'
import type { HttpResponseData } from '../../core/types'
import { logIntegration } from '../integration-logs'
import { resultSnapshot } from './answers-snapshot'
import { callHttp } from './http-call'
import { buildHttpRequest } from './request-builder'
import { applyResponseMapping } from './response-mapping'

/**
 * `Webhook` (an HTTP request block, integrations.md 1): the request is built from the
 * variables and sent through the outbound guard, or handed to the widget to send from the
 * visitor's browser (`isExecutedOnClient`). Whatever happens, the walk goes on.
 */
export async function runHttpRequestBlock(location: BlockLocation, step: Step): Promise<Continuation> {
  const { block, group } = location
  const next = follow(block.outgoingEdgeId)
  const options = asFields(block.options)
  if (options.webhook === undefined || options.webhook === null) {
    // Oldest exports name a request kept outside the export (`webhookId`): nothing to send.
    step.skip(block, 'info', 'HTTP request skipped: the request it names is not part of the flow')
    return next
  }
  const snapshot = await resultSnapshot(step)
  const built = buildHttpRequest(options, { index: step.index, variables: step.variables, answersSnapshot: () => snapshot })
  if (!built.ok) {
    step.skip(block, 'error', "Couldn't parse webhook attributes", { reason: built.reason })
    return next
  }
  const request = built.request
  if (options.isExecutedOnClient === true) {
    step.addAction({
      type: 'httpRequestToExecute',
      httpRequestToExecute: {
        url: request.url,
        method: request.method,
        headers: request.headers,
        ...(request.data === undefined ? {} : { body: request.data }),
        timeoutSeconds: request.timeoutSeconds,
      },
      expectsDedicatedReply: true,
    })
    return { kind: 'wait', awaiting: { kind: 'httpReply', groupId: group.id, blockId: block.id } }
  }

  const http = step.context.http
  if (!http) {
    step.skip(block, 'warning', 'HTTP request skipped: this service makes no outgoing calls here')
    return next
  }
  const timeoutSeconds = Math.min(request.timeoutSeconds, Math.floor(step.outboundTimeLeftMs / 1000))
  if (timeoutSeconds < 1) {
    step.skip(block, 'error', 'HTTP request not sent: this step already waited its longest on outgoing calls')
    return next
  }
  const started = Date.now()
  const { response, failure, kind } = await callHttp(http, { ...request, timeoutSeconds })
  step.outboundTimeLeftMs -= Date.now() - started
  await applyResponseMapping(step, options, response, block.id)
  const ok = failure === undefined && response.statusCode < 400
  const sent = { url: request.url, method: request.method, ...(request.data === undefined ? {} : { body: request.data }) }
  logIntegration(step, block, {
    status: ok ? 'success' : 'error',
    // Builders' wording (and spelling), which flows and their owners search logs for.
    description: ok ? 'Webhook successfuly executed.' : 'Webhook returned an error.',
    details: { statusCode: response.statusCode, request: sent, response: response.data, ...(failure ? { failure } : {}) },
    ...(ok ? {} : { publicDescription: publicFailure(response.statusCode, failure, kind) }),
  })
  return next
}

/** What the visitor's log says of a failed call: that it failed, or was not sent (a cap). */
function publicFailure(statusCode: number, failure: string | undefined, kind: HttpCallFailure | undefined): string {
  if (kind === 'limit') return `HTTP request not sent (${failure})`
  return `HTTP request failed (${failure ? 'no answer' : `status ${statusCode}`})`
}

/**
 * The widget's result for an `httpRequestToExecute` action: `{statusCode, data}` as JSON text.
 * Anything else is refused (400) and changes nothing: the widget sends it again properly.
 */
export async function acceptHttpReply(step: Step, location: BlockLocation, text: string): Promise<void> {
  let reply: unknown
  try {
    reply = JSON.parse(text)
  } catch {
    throw new EngineError('invalid_reply', 'Provided response is not valid JSON')
  }
  const fields = asFields(reply)
  if (typeof fields.statusCode !== 'number' || !Number.isInteger(fields.statusCode)) {
    throw new EngineError('invalid_reply', 'The HTTP request result must be {"statusCode": <number>, "data": <any>}')
  }
  const response: HttpResponseData = { statusCode: fields.statusCode, data: fields.data ?? null }
  await applyResponseMapping(step, location.block.options, response, location.block.id)
  const ok = response.statusCode < 400
  step.log(ok ? 'success' : 'error', ok ? 'HTTP request executed successfully!' : 'HTTP request returned error', {
    blockId: location.block.id,
    statusCode: response.statusCode,
  })
}
