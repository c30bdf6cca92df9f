import type { FlowChatElement } from './flow-chat-element'
import { forgetConversation } from './conversation-storage'
import { DEFAULT_TAG_NAME } from './define'

/** Attributes a bubble or popup hands down to the `<flow-chat>` it contains. */
export const FORWARDED_ATTRIBUTES = [
  'flow',
  'api-host',
  'chat-api-host',
  'token',
  'sandbox-url',
  'script-timeout',
  'allow-script-network',
  'label',
  'storage-key',
] as const

export type PrefilledVariables = FlowChatElement['prefilledVariables']

const storageKeyOf = (host: Element) => host.getAttribute('storage-key')?.trim() || host.id || host.localName

/**
 * Copies the forwarded attributes of `host` onto `chat` (adding, changing and removing). The
 * chat's storage key defaults to the launcher's id or tag, so a bubble and an inline chat of the
 * same flow remember separate conversations.
 */
export function forwardAttributes(host: Element, chat: Element): void {
  for (const name of FORWARDED_ATTRIBUTES) {
    const value = name === 'storage-key' ? storageKeyOf(host) : host.getAttribute(name)
    if (value === null) chat.removeAttribute(name)
    else if (chat.getAttribute(name) !== value) chat.setAttribute(name, value)
  }
}

/**
 * The chat inside a bubble or popup: a plain `<flow-chat>` created only on first open, so its
 * session starts then and not when the page loads. It carries the launcher's forwarded
 * attributes and prefilled variables, and takes the launcher's reload and reset commands.
 */
export class LaunchedChat {
  #chat: FlowChatElement | undefined
  #prefilled: PrefilledVariables

  constructor(private readonly host: HTMLElement) {}

  get element(): FlowChatElement | null {
    return this.#chat ?? null
  }
  get prefilled(): PrefilledVariables {
    return this.#prefilled
  }
  set prefilled(value: PrefilledVariables) {
    this.#prefilled = value
    if (this.#chat) this.#chat.prefilledVariables = value
  }

  /** The chat, created and handed to `place` (to put it in the window) on the first call. */
  ensure(place: (chat: FlowChatElement) => void): FlowChatElement {
    if (this.#chat) return this.#chat
    const chat = (this.#chat = document.createElement(DEFAULT_TAG_NAME) as FlowChatElement)
    forwardAttributes(this.host, chat)
    chat.prefilledVariables = this.#prefilled
    chat.setAttribute('part', 'chat')
    place(chat)
    return chat
  }

  /** Hands a changed launcher attribute down; false when it is not one the chat takes. */
  attributeChanged(name: string): boolean {
    if (!(FORWARDED_ATTRIBUTES as readonly string[]).includes(name)) return false
    if (this.#chat) forwardAttributes(this.host, this.#chat)
    return true
  }

  reload(): void {
    this.#chat?.reload()
  }

  /** Forgets the remembered conversation (even before the chat exists) and starts a new one. */
  reset(): void {
    if (this.#chat) this.#chat.restart()
    else forgetConversation(this.host.getAttribute('flow') ?? '', storageKeyOf(this.host))
  }
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

/**
 * A `prefilledVariables` set on the element before it was defined (a framework rendering before
 * the script loaded) is an own data property shadowing the accessor: move it onto the accessor.
 */
export function upgradePrefilled(element: HTMLElement & { prefilledVariables: PrefilledVariables }): void {
  if (!Object.prototype.hasOwnProperty.call(element, 'prefilledVariables')) return
  const value = element.prefilledVariables
  delete (element as { prefilledVariables?: PrefilledVariables }).prefilledVariables
  element.prefilledVariables = value
}
