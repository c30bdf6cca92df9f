// Named zod imports, not the `z` namespace: the widget's chunks that run actions import this
// module, and take from the core's zod only what it uses (build/lazy-chunks.ts).
import { array, catchall, looseObject, object, string, unknown } from 'zod/mini'
import { bool, num, numeric, opt, str, variableValue } from './common'

/**
 * The payloads of client actions, one schema per action type (the action's envelope is
 * `clientActionSchema` in ./chat).
 */
export const scriptArgSchema = /* @__PURE__ */ looseObject({ id: string(), value: opt(variableValue) })

/**
 * An HTTP request block run from the visitor's browser (`isExecutedOnClient`). The widget sends
 * it with `fetch` (body as JSON text when it is not a string; none for GET and HEAD), then posts
 * `{"statusCode": <status>, "data": <JSON body, or the text>}` as the next continueChat text
 * (`{"statusCode": 500, "data": "…"}` when the call fails). The action has `expectsDedicatedReply`.
 * `timeoutSeconds` is the block's (see http-request-limits.ts for the default and the bounds).
 */
export const httpRequestToExecuteSchema = /* @__PURE__ */ looseObject({
  url: string(),
  method: str(),
  // An object whose values are all strings (`z.catchall` rather than `z.record`: the widget's core
  // already carries objects, and a record kind would add 2.5 KB to it).
  headers: opt(catchall(object({}), string())),
  body: opt(unknown()),
  timeoutSeconds: num(),
})

/**
 * A wait-for-webhook block: the flow goes on when an outside system calls the flow's result
 * webhook. The widget shows the chat as waiting and long-polls `LISTEN_FOR_WEBHOOK_PATH` with
 * this `waitId` until the answer is `continued` (see `webhookWaitResponseSchema`). The action
 * has `expectsDedicatedReply`: no answer is typed meanwhile (commands still work).
 */
export const listenForWebhookSchema = /* @__PURE__ */ looseObject({ waitId: string() })

/**
 * A `handoff` block: the conversation waits for a person of the owner's team. The widget loads
 * its live chunk and follows the handoff's events (`HANDOFF_EVENTS_PATH` in ./handoff) until a
 * `continued` event carries the flow's next step. The action has `expectsDedicatedReply`: the
 * visitor's messages go to the person (`HANDOFF_MESSAGES_PATH`), not to continueChat.
 */
export const handoffSchema = /* @__PURE__ */ looseObject({ handoffId: string() })

export const scriptToExecuteSchema = /* @__PURE__ */ looseObject({ content: string(), args: opt(array(scriptArgSchema)) })
export const redirectSchema = /* @__PURE__ */ looseObject({ url: str(), isNewTab: bool() })
export const waitSchema = /* @__PURE__ */ looseObject({ secondsToWaitFor: numeric() })

/**
 * What an action carries under its own type's name. The widget's core reads an action's envelope
 * (`clientActionSchema`) and never its payload: the chunk that runs the action checks the payload
 * with its schema here before using it (a payload it cannot read fails the step as an unreadable
 * response would), so the core carries none of these schemas.
 */
export const ACTION_PAYLOADS = {
  scriptToExecute: scriptToExecuteSchema,
  redirect: redirectSchema,
  wait: waitSchema,
  httpRequestToExecute: httpRequestToExecuteSchema,
  listenForWebhook: listenForWebhookSchema,
  handoff: handoffSchema,
}
