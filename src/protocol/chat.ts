import { z } from 'zod/mini'
import type { ACTION_PAYLOADS } from './action-payloads'
import { bool, num, numeric, opt, str } from './common'
import { type IdentityVerdict, startChatUserSchema } from './identity'

export const MESSAGE_TYPES = ['text', 'image', 'video', 'audio', 'embed'] as const
export const INPUT_TYPES = [
  'text input',
  'number input',
  'email input',
  'url input',
  'phone number input',
  'date input',
  'choice input',
  'picture choice input',
  'rating input',
  'file input',
  'cards',
  'payment input',
] as const

/** Any message: its `type` decides the shape of `content` (see the content schemas below). */
export const chatMessageSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  content: opt(z.unknown()),
})
export type ChatMessage = z.infer<typeof chatMessageSchema>

/**
 * `richText` is a tree of `{type, children, url?}` elements with `{text, bold?, …}` leaves.
 * `markdown`: the same text as Markdown, sent when a variable inserted into it holds Markdown
 * (the flow's own words escaped, the values as written); a client that reads it shows it through
 * the sanitiser of AI answers, one that does not shows `richText` with the values as plain text.
 */
export const textContentSchema = z.looseObject({
  richText: opt(z.array(z.unknown())),
  html: str(),
  plainText: str(),
  markdown: str(),
})
export const videoContentSchema = z.looseObject({
  url: str(),
  type: str(),
  id: str(),
  height: numeric(),
  aspectRatio: str(),
})

/**
 * The options the core's text field reads (placeholder, button label, long text); the others pass
 * through unread here: the rich-inputs chunk checks them all (`inputOptionsSchema`, in
 * ./input-options) before its views read them.
 */
const textInputOptionsSchema = z.looseObject({
  labels: opt(z.looseObject({ placeholder: str(), button: str() })),
  isLong: bool(),
})

export const choiceItemSchema = z.looseObject({
  id: z.string(),
  outgoingEdgeId: str(),
  content: str(),
  value: str(),
  pictureSrc: str(),
  title: str(),
  description: str(),
})
export type ChoiceItem = z.infer<typeof choiceItemSchema>

/**
 * An input as the chat shows it. `runtimeOptions` (`{paymentIntentSecret, amountLabel,
 * publicKey}`, a payment input's) passes through unread: no input of this widget reads it, and
 * code that does is to parse it first, as action runners parse their payloads.
 */
export const chatInputSchema = z.looseObject({
  id: z.string(),
  outgoingEdgeId: str(),
  type: z.string(),
  options: opt(textInputOptionsSchema),
  items: opt(z.array(choiceItemSchema)),
  prefilledValue: str(),
})
export type ChatInput = z.infer<typeof chatInputSchema>

/** Payloads as they come, unread: code that runs an action parses its payload first. */
type UnreadPayloads = { [K in keyof typeof ACTION_PAYLOADS]?: unknown }

/**
 * A client action's envelope; its payload passes through unread (see `ACTION_PAYLOADS`).
 * `stream` (`{type: "stream", stream: true, expectsDedicatedReply: true, lastBubbleBlockId?}`):
 * an AI block's answer streams. Once the bubbles up to `lastBubbleBlockId` are shown, the widget
 * sends `POST STREAM_MESSAGE_PATH` with `{}` and shows the text as it arrives (the line format
 * and its parser are in `./stream`); after the finish part it sends continueChat with no
 * `message` (body `{}`), and the flow goes on with the text the service recorded.
 */
const actionEnvelope = z.looseObject({
  type: z.string(),
  stream: bool(),
  lastBubbleBlockId: str(),
  expectsDedicatedReply: bool(),
})
export const clientActionSchema = actionEnvelope as unknown as z.ZodMiniType<z.output<typeof actionEnvelope> & UnreadPayloads>
export type ClientAction = z.infer<typeof clientActionSchema>

export const chatLogSchema = z.looseObject({
  status: z.string(),
  description: z.string(),
  details: opt(z.unknown()),
})
export type ChatLog = z.infer<typeof chatLogSchema>

const chatStepShape = {
  lastMessageNewFormat: str(),
  messages: opt(z.array(chatMessageSchema)),
  input: opt(chatInputSchema),
  clientSideActions: opt(z.array(clientActionSchema)),
  logs: opt(z.array(chatLogSchema)),
  dynamicTheme: opt(z.looseObject({ hostAvatarUrl: str(), guestAvatarUrl: str() })),
  progress: num(),
}
export const chatStepResultSchema = z.looseObject(chatStepShape)
export type ChatStepResult = z.infer<typeof chatStepResultSchema>

/** Longest answer a visitor can send in one message (characters). */
export const MAX_MESSAGE_LENGTH = 10_000

/** Longest command name a host page can send (`sendCommand`). */
export const MAX_COMMAND_LENGTH = 200
/** Most file addresses one answer may attach, and the longest address. */
export const MAX_ATTACHED_FILES = 20
export const MAX_URL_LENGTH = 2048

// Calls marked pure (see common.ts): a bundle that never parses requests drops these schemas.
/* @__NO_SIDE_EFFECTS__ */
const answerText = () => /* @__PURE__ */ z.string().check(z.maxLength(MAX_MESSAGE_LENGTH))

/** An answer: `replyId` names the chosen item (cards), `attachedFileUrls` the uploaded files. */
export const textReplySchema = z.looseObject({
  type: z.literal('text'),
  text: answerText(),
  replyId: opt(/* @__PURE__ */ z.string().check(z.maxLength(200))),
  attachedFileUrls: opt(
    /* @__PURE__ */ z.array(/* @__PURE__ */ z.string().check(z.maxLength(MAX_URL_LENGTH))).check(z.maxLength(MAX_ATTACHED_FILES)),
  ),
})
/** A command the host page sent; the flow's matching `command` event runs. */
export const commandReplySchema = z.looseObject({
  type: z.literal('command'),
  command: /* @__PURE__ */ z.string().check(z.minLength(1), z.maxLength(MAX_COMMAND_LENGTH)),
})
export type CommandReply = z.infer<typeof commandReplySchema>
/** A bare string means `{type: "text", text}`, so older clients keep working. */
export const chatReplyMessageSchema = z.union([answerText(), textReplySchema, commandReplySchema])
export type ChatReplyMessage = z.infer<typeof chatReplyMessageSchema>

/**
 * `message` is left out only after a streamed AI answer (the `stream` action): the flow goes on
 * with the text the service recorded. The service refuses a missing `message` in any other
 * state (400 naming `message`), and while the answer is still streaming (409).
 */
export const continueChatRequestSchema = z.looseObject({ message: z.optional(chatReplyMessageSchema) })

export const MAX_IDEMPOTENCY_KEY_LENGTH = 128

/** A prefilled variable's value, as startChat takes it. */
export type PrefilledValue = string | number | boolean
export type PrefilledVariables = Record<string, PrefilledValue>

/** A string, a finite number or a boolean: the service's check, and what the widget keeps of a page's values. */
export const isPrefilledValue = (value: unknown): value is PrefilledValue =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))

export const startChatRequestSchema = z.looseObject({
  prefilledVariables: opt(
    z.record(z.string(), z.custom<PrefilledValue>(isPrefilledValue, 'Expected a string, a finite number or a boolean')),
  ),
  resultId: opt(/* @__PURE__ */ z.string().check(z.minLength(1), z.maxLength(200))),
  /**
   * The client can show streamed AI answers (`stream` actions); the widget always sends true.
   * Left out or false, an AI block's answer is computed within the step.
   */
  isStreamEnabled: opt(z.boolean()),
  /**
   * Answers the flow's first input in the same call (API clients and messaging bridges): checked
   * as continueChat's `message`. The response carries the messages before that input, then those
   * after the answer (or the retry message and the input again when the answer is invalid).
   * Ignored when the flow reaches no input.
   */
  message: opt(chatReplyMessageSchema),
  /**
   * Who the site says the visitor is (`{id, hash}`, see ./identity). Verified, the conversation is
   * the user's: a start resumes the user's running conversation of this flow from any device.
   */
  user: opt(startChatUserSchema),
  /**
   * The visitor chose to start over: a new conversation, even for a verified user whose
   * conversation of this flow is running (that one is kept as it stands).
   */
  startOver: opt(z.boolean()),
})
export type StartChatRequest = z.infer<typeof startChatRequestSchema>

export const startChatResponseSchema = z.looseObject({
  ...chatStepShape,
  sessionId: z.string(),
  resultId: z.string(),
  flowId: z.string(),
  publishedAt: z.string(),
})
/**
 * Read by the widget without a schema of their own (the core parses only the step): `identity`,
 * the verdict on the request's `user`; `resumed`, the start went on with the user's running
 * conversation (the step is where it stands); `restartedBecause: "expired"`, the user's
 * conversation had expired (the flow's `rememberUser.expiryHours`) and a new one began.
 */
export type StartChatResponse = z.infer<typeof startChatResponseSchema> & {
  identity?: IdentityVerdict
  resumed?: boolean
  restartedBecause?: 'expired'
}

/**
 * `GET {chat_base_url}/v1/sessions/{sessionId}/listenForWebhook?waitId=…[&timeoutSeconds=0…25]`,
 * no authorization (the session id is the secret, as for continueChat). Answers within the
 * timeout (25 s by default): `waiting` (ask again), or `continued` with the chat step the flow
 * produced when the webhook came (messages, input, actions; show it like a continueChat answer).
 * The same `continued` answer comes back on every later request for that `waitId`, so a reloaded
 * page or a retried request catches up; errors are those of continueChat (404 unknown session or
 * wait, 410 ended or expired session).
 */
export const LISTEN_FOR_WEBHOOK_PATH = '/v1/sessions/{sessionId}/listenForWebhook'
export const MAX_LISTEN_SECONDS = 25
export const webhookWaitResponseSchema = z.union([
  z.looseObject({ status: z.literal('waiting') }),
  z.looseObject({ status: z.literal('continued'), step: chatStepResultSchema }),
])
export type WebhookWaitResponse = z.infer<typeof webhookWaitResponseSchema>
