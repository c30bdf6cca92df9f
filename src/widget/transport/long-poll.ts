import type { z } from 'zod/mini'
// Named zod imports, not the `z` namespace: only chunks import this module (a webhook's runner and
// the commands), and they take from the core's zod only what they use (build/lazy-chunks.ts).
import { looseObject, string } from 'zod/mini'
import { chatStepResultSchema, LISTEN_FOR_WEBHOOK_PATH, MAX_LISTEN_SECONDS } from '../../protocol/chat'
import { opt } from '../../protocol/common'
import type { ChatEndpoint } from './client'
import { requestJson } from './http'

/** The long poll's answer, read with schemas the core has anyway (`status` is `waiting` or `continued`). */
const webhookWaitSchema = looseObject({ status: string(), step: opt(chatStepResultSchema) })
export type WebhookWait = z.infer<typeof webhookWaitSchema>

/**
 * One long poll of a wait-for-webhook block (`LISTEN_FOR_WEBHOOK_PATH`) on the chat API of
 * `endpoint` (a FlowClient's `chat`), never retried here: the caller keeps asking. `step` comes
 * with `continued`; after `timeoutSeconds` the answer is `waiting`.
 */
export function listenForWebhook(
  { chatApi, fetch, timeoutMs }: ChatEndpoint,
  sessionId: string,
  waitId: string,
  signal: AbortSignal,
  timeoutSeconds = MAX_LISTEN_SECONDS,
): Promise<WebhookWait> {
  const path = LISTEN_FOR_WEBHOOK_PATH.replace('{sessionId}', encodeURIComponent(sessionId))
  const url = `${chatApi}${path}?waitId=${encodeURIComponent(waitId)}&timeoutSeconds=${timeoutSeconds}`
  // The service holds the request up to `timeoutSeconds`: the time limit starts after that.
  return requestJson(url, webhookWaitSchema, { signal, timeoutMs: timeoutMs + timeoutSeconds * 1000, fetch })
}
