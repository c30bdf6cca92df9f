import { refuseCommand, widgetWarning } from '../chat/index'
import { createEmitter } from './emitter'
import type { FlowChatElement, FlowChatElementOptions } from './flow-chat-element'
import type { BUBBLE_PROPERTIES, POPUP_PROPERTIES } from './launcher-properties'
import type { attach } from './launchers/index'
import type { Properties } from './properties'

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

/** What the launchers chunk gives an element: its window mechanics and its inner chat. */
export interface LauncherBehaviour {
  readonly isOpen: boolean
  readonly chat: FlowChatElement | null
  connected(): void
  disconnected(): void
  open(): void
  close(): void
  toggle(): void
  reload(): void
  reset(): void
  showPreviewMessage?(text?: string): void
  hidePreviewMessage?(): void
}

export type LauncherKind = 'bubble' | 'popup'
type Command = 'open' | 'close' | 'toggle' | 'reload' | 'reset' | 'showPreviewMessage' | 'hidePreviewMessage'

interface Launched {
  behaviour?: LauncherBehaviour
  /** Commands given before the launchers chunk was here, in order. */
  waiting: Array<[Command, unknown[]]>
}
const launched = new WeakMap<HTMLElement, Launched>()
const stateOf = (host: HTMLElement): Launched => launched.get(host) ?? launched.set(host, { waiting: [] }).get(host)!

/**
 * Options of a FlowChat.init* call, applied by the launchers chunk (which has the property table).
 * Kept on the registered class, not in this module: with the script on a page twice, the element
 * class is the first copy's, and so is the chunk that applies them.
 */
export const pendingOptions = (element: HTMLElement): WeakMap<HTMLElement, Record<string, unknown>> =>
  (element.constructor as unknown as { pendingOptions: WeakMap<HTMLElement, Record<string, unknown>> }).pendingOptions

/** Called by the launchers chunk once an element has its behaviour: the commands given meanwhile run now. */
export function settle(host: HTMLElement, behaviour: LauncherBehaviour): void {
  const state = stateOf(host)
  state.behaviour = behaviour
  for (const [command, args] of state.waiting.splice(0)) (behaviour[command] as (...args: unknown[]) => void)?.(...args)
}

let chunk: Promise<{ attach: typeof attach }> | undefined
/** The launchers' code, loaded once, when the first bubble or popup connects. */
function loadLaunchers(): Promise<{ attach: typeof attach }> {
  chunk ??= import('./launchers/index').catch((error: unknown) => {
    chunk = undefined // a later element (or a reconnect) tries again
    throw error
  })
  return chunk
}

/**
 * The element class of a bubble or popup. The core bundle defines it, so markup and FlowChat
 * calls upgrade at once; everything a launcher is (its properties, attributes and window) comes
 * with the launchers chunk, requested when the first one connects. Commands given before it
 * arrives are carried out when it does.
 */
export function createLauncherElement(kind: LauncherKind, options: FlowChatElementOptions = {}): CustomElementConstructor {
  class Launcher extends HTMLElement {
    static pendingOptions = new WeakMap<HTMLElement, Record<string, unknown>>()

    get isOpen() {
      return launched.get(this)?.behaviour?.isOpen ?? false
    }
    get chat() {
      return launched.get(this)?.behaviour?.chat ?? null
    }
    connectedCallback() {
      loadLaunchers().then(
        (launchers) => this.isConnected && launchers.attach(kind, this, options),
        (error: unknown) => {
          const detail = widgetWarning('chunk-load-failed', `The ${kind} could not be loaded`, { error: String(error) })
          createEmitter(this)('flowchat:log', { ...detail, status: 'error' })
        },
      )
    }
    disconnectedCallback() {
      launched.get(this)?.behaviour?.disconnected()
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
  const commands: Command[] = ['open', 'close', 'toggle', 'reload', 'reset']
  if (kind === 'bubble') commands.push('showPreviewMessage', 'hidePreviewMessage')
  for (const command of commands) {
    Object.defineProperty(Launcher.prototype, command, {
      configurable: true,
      value(this: HTMLElement, ...args: unknown[]) {
        const state = stateOf(this)
        if (state.behaviour) (state.behaviour[command] as (...args: unknown[]) => void)?.(...args)
        else state.waiting.push([command, args])
      },
    })
  }
  return Launcher
}
