import type { FlowChatElement } from './flow-chat-element'
import { DEFAULT_TAG_NAME } from './define'
import { rememberResult } from './remembered-result'

/** Attributes a bubble or popup hands down to the `<flow-chat>` it contains. */
export const FORWARDED_ATTRIBUTES = [
  'flow',
  'api-host',
  'chat-api-host',
  'token',
  'sandbox-url',
  'script-timeout',
  'allow-script-network',
] as const

export type PrefilledVariables = FlowChatElement['prefilledVariables']

/** Copies the forwarded attributes of `host` onto `chat` (adding, changing and removing). */
export function forwardAttributes(host: Element, chat: Element): void {
  for (const name of FORWARDED_ATTRIBUTES) {
    const value = host.getAttribute(name)
    if (value === null) chat.removeAttribute(name)
    else if (chat.getAttribute(name) !== value) chat.setAttribute(name, value)
  }
}

/**
 * The chat inside a launcher is a plain `<flow-chat>`: created only when first needed, so its
 * session starts on first open and not when the page loads.
 */
export function createInnerChat(host: Element, prefilled: PrefilledVariables): FlowChatElement {
  const chat = document.createElement(DEFAULT_TAG_NAME) as FlowChatElement
  forwardAttributes(host, chat)
  chat.prefilledVariables = prefilled
  chat.setAttribute('part', 'chat')
  return chat
}

/** Forgets the conversation this browser remembers for `flow`, so the next start is fresh. */
export function forgetConversation(flow: string): void {
  if (flow) rememberResult(flow, '', undefined)
}

/** Dispatches one of the launcher's own events (`flowchat:open`, `flowchat:close`). */
export function emitLauncherEvent(host: Element, type: 'flowchat:open' | 'flowchat:close'): void {
  host.dispatchEvent(new CustomEvent(type, { detail: {}, bubbles: true, composed: true }))
}

/**
 * Types into the chat's current text field, through its documented `input` part, the way a
 * visitor would (an `input` event), so the chat's own validation and state see it.
 */
export function setChatInput(chat: Element | null | undefined, value: string): boolean {
  const field = chat?.shadowRoot?.querySelector<HTMLInputElement | HTMLTextAreaElement>('[part~="input"]')
  if (!field || field.disabled) return false
  field.value = String(value)
  field.dispatchEvent(new Event('input', { bubbles: true, composed: true }))
  return true
}

/**
 * Presses the chat's send button (`send-button` part), if an input is waiting for an answer.
 * After a task: a value set just before has to reach the chat's render (which enables the button).
 */
export async function submitChatInput(chat: Element | null | undefined): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 0))
  const send = chat?.shadowRoot?.querySelector<HTMLButtonElement>('[part~="send-button"]')
  if (!send || send.disabled) return false
  send.click()
  return true
}
