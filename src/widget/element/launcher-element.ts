import { chunkFailure, refuseCommand } from '../chat/index'
import { preloadChatView } from './chat-view'
import { createEmitter } from './emitter'
import type { FlowChatElement, FlowChatElementOptions } from './flow-chat-element'
import type { LauncherBehaviour, LauncherKind } from './launcher-behaviour'
import type { BUBBLE_PROPERTIES, POPUP_PROPERTIES } from './launcher-properties'
import type { Properties } from './properties'

/** `<flow-chat-bubble>`, `<flow-chat-popup>`. */
export const launcherTag = (kind: LauncherKind) => `flow-chat-${kind}` as const

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
  /** Runs the flow's `command` event named `name` in the chat (refused until it was first opened). */
  sendCommand(name: string): Promise<void>
}

/** Public surface of `<flow-chat-bubble>` beyond HTMLElement. */
export interface FlowChatBubbleElement extends HTMLElement, LauncherCommands, Properties<typeof BUBBLE_PROPERTIES> {
  showPreviewMessage(text?: string): void
  hidePreviewMessage(): void
}

/** Public surface of `<flow-chat-popup>` beyond HTMLElement. */
export interface FlowChatPopupElement extends HTMLElement, LauncherCommands, Properties<typeof POPUP_PROPERTIES> {}

/**
 * What a launcher does once its chunk is here: given before, they wait for it and run in order.
 * A bubble adds PREVIEW_COMMANDS. Handles forward the same commands to their element (embed/init.ts).
 */
export const LAUNCHER_COMMANDS = ['open', 'close', 'toggle', 'reload', 'reset'] as const
export const PREVIEW_COMMANDS = ['showPreviewMessage', 'hidePreviewMessage'] as const
type Command = (typeof LAUNCHER_COMMANDS)[number] | (typeof PREVIEW_COMMANDS)[number]

/** The launcher commands of a kind of chat (`undefined`: an inline one, which has no window to open but takes them). */
export const launcherCommands = (kind: LauncherKind | undefined): readonly Command[] =>
  kind === 'bubble' ? [...LAUNCHER_COMMANDS, ...PREVIEW_COMMANDS] : LAUNCHER_COMMANDS

/**
 * The element class of a bubble or popup. The core bundle defines it, so markup and FlowChat
 * calls upgrade at once; everything a launcher is (its properties, attributes and window) comes
 * with the launchers chunk, requested when the first one connects. Commands given before it
 * arrives are carried out when it does.
 */
export function createLauncherElement(kind: LauncherKind, options: FlowChatElementOptions = {}): CustomElementConstructor {
  const commands = launcherCommands(kind)
  class Launcher extends HTMLElement {
    static pendingOptions = new WeakMap<HTMLElement, Record<string, unknown>>()
    #behaviour: LauncherBehaviour | undefined
    /** Commands given before the launchers chunk was here, in order. */
    #waiting: Array<[Command, unknown[]]> = []

    static {
      for (const command of commands) {
        Object.defineProperty(Launcher.prototype, command, {
          configurable: true,
          value(this: Launcher, ...args: unknown[]) {
            if (this.#behaviour) (this.#behaviour[command] as (...args: unknown[]) => void)?.(...args)
            else this.#waiting.push([command, args])
          },
        })
      }
    }

    get isOpen() {
      return this.#behaviour?.isOpen ?? false
    }
    get chat() {
      return this.#behaviour?.chat ?? null
    }
    connectedCallback() {
      // The launchers' code, loaded once (a failed load is tried again by the next element, or a reconnect).
      import('./launchers/index').then(
        (launchers) => {
          if (!this.isConnected) return
          const behaviour = (this.#behaviour = launchers.attach(kind, this, options))
          // The chat's views, so the first open shows at once: what every page had in its core before.
          preloadChatView()
          for (const [command, args] of this.#waiting.splice(0)) (behaviour[command] as (...args: unknown[]) => void)?.(...args)
        },
        (error: unknown) => createEmitter(this)('flowchat:log', chunkFailure(kind, error)),
      )
    }
    disconnectedCallback() {
      this.#behaviour?.disconnected()
    }
    setInputValue(value: string): boolean {
      return this.chat?.setInputValue(value) ?? false
    }
    submitInput(): boolean {
      return this.chat?.submitInput() ?? false
    }
    sendCommand(name: string): Promise<void> {
      return this.chat?.sendCommand(name) ?? refuseCommand(createEmitter(this), name, 'the chat has not been opened yet')
    }
  }
  return Launcher
}
