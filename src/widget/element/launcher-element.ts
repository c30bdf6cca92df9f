import { widgetWarning } from '../chat/index'
import { createEmitter } from './emitter'
import type { FlowChatElement, FlowChatElementOptions } from './flow-chat-element'
import type { createLauncher } from './launchers/index'
import { BUBBLE_PROPERTIES, POPUP_PROPERTIES } from './launcher-properties'
import { defineProperties, observedAttributes, upgradeProperties, type Properties, type PropertyTable } from './properties'

export const BUBBLE_TAG_NAME = 'flow-chat-bubble'
export const POPUP_TAG_NAME = 'flow-chat-popup'

/** What a bubble and a popup do besides their properties. */
interface LauncherCommands {
  readonly isOpen: boolean
  /** The `<flow-chat>` inside, once first opened (null before: no session exists yet). */
  readonly chat: FlowChatElement | null
  open(): void
  close(): void
  toggle(): void
  /** Starts the conversation again (keeping a remembered one, when the flow remembers users). */
  reload(): void
  /** Forgets the remembered conversation and starts a new one. */
  reset(): void
  /** Types into the chat's waiting text field; false when none is waiting (or not opened yet). */
  setInputValue(value: string): boolean
  /** Sends what is typed, as the send button does; false when nothing is. */
  submitInput(): boolean
}

/** Public surface of `<flow-chat-bubble>` beyond HTMLElement. */
export interface FlowChatBubbleElement extends HTMLElement, LauncherCommands, Properties<typeof BUBBLE_PROPERTIES> {
  showPreviewMessage(text?: string): void
  hidePreviewMessage(): void
}

/** Public surface of `<flow-chat-popup>` beyond HTMLElement. */
export interface FlowChatPopupElement extends HTMLElement, LauncherCommands, Properties<typeof POPUP_PROPERTIES> {}

/** What the launchers chunk gives an element: its window mechanics and its inner chat. */
export interface LauncherBehaviour {
  readonly isOpen: boolean
  readonly chat: FlowChatElement | null
  connected(): void
  disconnected(): void
  attributeChanged(name: string): void
  open(): void
  close(): void
  reload(): void
  reset(): void
  showPreviewMessage?(text?: string): void
  hidePreviewMessage?(): void
}

export type LauncherKind = 'bubble' | 'popup'
type LaunchersChunk = { createLauncher: typeof createLauncher }

let chunk: Promise<LaunchersChunk> | undefined
/** The launchers' code, loaded once, when the first bubble or popup connects. */
function loadLaunchers(): Promise<LaunchersChunk> {
  chunk ??= import('./launchers/index').catch((error: unknown) => {
    chunk = undefined // a later element (or a reconnect) tries again
    throw error
  })
  return chunk
}

/**
 * The element class of a bubble or popup. The core bundle defines it (so markup and FlowChat
 * calls upgrade at once, with every property and command); what a launcher does lives in the
 * launchers chunk, requested when the first one connects. Commands given before it arrives are
 * carried out when it does.
 */
export function createLauncherElement(kind: LauncherKind, options: FlowChatElementOptions = {}): CustomElementConstructor {
  const table: PropertyTable = kind === 'bubble' ? BUBBLE_PROPERTIES : POPUP_PROPERTIES

  class Launcher extends HTMLElement {
    static observedAttributes = observedAttributes(table)

    #behaviour: LauncherBehaviour | undefined
    #waiting: Array<(behaviour: LauncherBehaviour) => void> = []

    get isOpen() {
      return this.#behaviour?.isOpen ?? false
    }
    get chat() {
      return this.#behaviour?.chat ?? null
    }

    connectedCallback() {
      upgradeProperties(this, table)
      if (this.#behaviour) return this.#behaviour.connected()
      loadLaunchers().then(
        ({ createLauncher }) => {
          if (this.#behaviour || !this.isConnected) return
          const behaviour = (this.#behaviour = createLauncher(kind, this, options))
          behaviour.connected()
          for (const command of this.#waiting.splice(0)) command(behaviour)
        },
        (error: unknown) => {
          const detail = widgetWarning('chunk-load-failed', `The ${kind} could not be loaded`, { error: String(error) })
          createEmitter(this)('flowchat:log', { ...detail, status: 'error' })
        },
      )
    }

    disconnectedCallback() {
      this.#behaviour?.disconnected()
    }

    attributeChangedCallback(name: string, previous: string | null, next: string | null) {
      if (previous !== next) this.#behaviour?.attributeChanged(name)
    }

    open() {
      this.#do((behaviour) => behaviour.open())
    }
    close() {
      this.#do((behaviour) => behaviour.close())
    }
    toggle() {
      this.#do((behaviour) => (behaviour.isOpen ? behaviour.close() : behaviour.open()))
    }
    reload() {
      this.#do((behaviour) => behaviour.reload())
    }
    reset() {
      this.#do((behaviour) => behaviour.reset())
    }
    setInputValue(value: string): boolean {
      return this.chat?.setInputValue(value) ?? false
    }
    submitInput(): boolean {
      return this.chat?.submitInput() ?? false
    }

    /** Now, or as soon as the launchers chunk is here. */
    protected do(command: (behaviour: LauncherBehaviour) => void) {
      this.#do(command)
    }
    #do(command: (behaviour: LauncherBehaviour) => void) {
      if (this.#behaviour) command(this.#behaviour)
      else this.#waiting.push(command)
    }
  }
  defineProperties(Launcher.prototype, table)
  if (kind === 'popup') return Launcher

  class Bubble extends Launcher {
    showPreviewMessage(text?: string) {
      this.do((behaviour) => behaviour.showPreviewMessage?.(text))
    }
    hidePreviewMessage() {
      this.do((behaviour) => behaviour.hidePreviewMessage?.())
    }
  }
  return Bubble
}
