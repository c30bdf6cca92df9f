import { effect } from '@preact/signals-core'
import { metadataSchema } from '../../../protocol/metadata'
import { styleBoxSchema } from '../../../protocol/style-box'
import { attributeCssValue } from '../../content/css'
import { createLocale, type Locale, translate } from '../../i18n/locale'
import type { StringId } from '../../i18n/strings'
import { createFlowClient } from '../../transport/index'
import { CHAT_PROPERTIES } from '../chat-properties'
import { forgetConversation } from '../conversation-storage'
import { DEFAULT_TAG_NAME } from '../define'
import type { FlowChatElement, FlowChatElementOptions } from '../flow-chat-element'
import type { LauncherBehaviour } from '../launcher-behaviour'
import type { LauncherTable } from '../launcher-properties'
import { observedAttributes, type Properties, type PropertySpec, type PropertyTable, propertyOf, readProperty } from '../properties'
import { adoptCss } from './launcher-styles'

/** The chat's own attributes: a launcher hands every one of them to the chat it contains. */
const CHAT_ATTRIBUTES: ReadonlySet<string> = new Set(observedAttributes(CHAT_PROPERTIES))

/**
 * What a bubble and a popup have in common: the `<flow-chat>` inside (created on first open, so
 * its session starts then and not when the page loads), the flow's theme on the launcher (read
 * through the same client, so the chat reuses that read), the title, the styles from the
 * element's attributes, and letting go of all that when the element leaves the page. Subclasses
 * keep only their window mechanics.
 */
export abstract class LauncherBase<T extends LauncherTable = LauncherTable> implements LauncherBehaviour {
  protected readonly root: ShadowRoot
  #chat: FlowChatElement | undefined
  #theme: AbortController | undefined
  #flowName = ''
  #locale: Locale | undefined
  #stopLabels: (() => void) | undefined

  constructor(
    protected readonly host: HTMLElement,
    private readonly table: T,
    private readonly options: FlowChatElementOptions,
    markup: string,
    css: string,
  ) {
    this.root = host.attachShadow({ mode: 'open' })
    this.root.innerHTML = markup
    adoptCss(this.root, css)
  }

  abstract get isOpen(): boolean
  abstract open(): void
  abstract close(): void

  toggle(): void {
    if (this.isOpen) this.close()
    else this.open()
  }
  /**
   * Shows the title (the label, else the flow's share title, else its name, else "Chat") wherever the window has it, and
   * the launcher's other words, in its language (see `localize`).
   */
  protected abstract showTitle(): void
  /** Other attributes of the subclass's own (a bubble's preview, its icon). */
  protected optionChanged(_roles: readonly string[]): void {}
  /** Lets go of what the window holds on the page (timers, listeners, the scroll lock). */
  protected abstract release(): void

  get chat(): FlowChatElement | null {
    return this.#chat ?? null
  }

  get title(): string {
    return this.prop('label').trim() || this.#flowName || this.t('chat')
  }

  /**
   * A property of the launcher's table as the table reads it (its attribute checked and parsed,
   * else its fallback): the one way a launcher reads its options.
   */
  protected prop<K extends keyof T & string>(name: K): Properties<T>[K] {
    return readProperty(this.host, name, this.table[name] as PropertySpec) as Properties<T>[K]
  }

  /** The launcher's language and direction: its own `lang` and `dir`, else the page's (as its chat's). */
  protected get locale(): Locale {
    return (this.#locale ??= createLocale(this.host, this.prop('dir'), this.prop('strings')))
  }

  /** The launcher's text `id` in its language. */
  protected t(id: StringId, values?: Record<string, string | number>): string {
    return translate(this.locale, id, values)
  }

  /**
   * Shows the launcher's words in its language now and when its translation arrives; `language`:
   * its language is read again first (its `lang` or `dir` changed).
   */
  protected localize(language = true): void {
    this.#stopLabels?.()
    if (language) this.#locale = undefined
    this.#stopLabels = effect(() => this.showTitle())
  }

  connected(): void {
    this.applyStyles()
    this.#loadTheme()
  }

  disconnected(): void {
    // Deferred: moved within the page, the element is disconnected and reconnected in one task.
    queueMicrotask(() => {
      if (this.host.isConnected) return
      this.#theme?.abort()
      this.release()
    })
  }

  attributeChanged(name: string): void {
    const roles = propertyOf(this.table, name)?.roles ?? []
    if (CHAT_ATTRIBUTES.has(name) && this.#chat) this.#forward(this.#chat)
    if (roles.includes('launcher-theme')) this.#loadTheme()
    if (roles.includes('renders')) this.localize(roles.includes('language'))
    this.applyStyles()
    this.optionChanged(roles)
  }

  reload(): void {
    if (!this.#chat) return
    this.#chat.prefilledVariables = this.#prefilled()
    this.#chat.reload()
  }

  /** Forgets the remembered conversation (even before the chat exists) and starts a new one. */
  reset(): void {
    if (this.#chat) {
      this.#chat.prefilledVariables = this.#prefilled()
      this.#chat.reset()
    } else {
      forgetConversation(this.prop('flow'), this.#storageKey())
    }
  }

  /** The chat, created and handed to `place` (to put it in the window) on the first call. */
  protected ensureChat(place: (chat: FlowChatElement) => void): FlowChatElement {
    if (this.#chat) return this.#chat
    const chat = (this.#chat = document.createElement(DEFAULT_TAG_NAME) as FlowChatElement)
    this.#forward(chat)
    chat.prefilledVariables = this.#prefilled()
    chat.strings = this.prop('strings')
    chat.setAttribute('part', 'chat')
    place(chat)
    return chat
  }

  /** Finds an element of the window by its `data-role`. */
  protected part<T extends HTMLElement = HTMLElement>(role: string): T {
    return this.root.querySelector<T>(`[data-role="${role}"]`)!
  }

  /** The custom properties the element's attributes set (only valid lengths, integers and colours). */
  protected applyStyles(): void {
    for (const [name, spec] of Object.entries(this.table as PropertyTable)) {
      if (!spec.style || (spec.kind !== 'length' && spec.kind !== 'integer' && spec.kind !== 'colour')) continue
      const value = attributeCssValue(spec.kind, String(readProperty(this.host, name, spec)))
      if (value) this.host.style.setProperty(spec.style, value)
      else this.host.style.removeProperty(spec.style)
    }
  }

  #prefilled(): FlowChatElement['prefilledVariables'] {
    return this.prop('prefilledVariables')
  }

  #storageKey(): string {
    return this.prop('storageKey')
  }

  /** Copies the chat's attributes from the launcher (adding, changing, removing); the storage key defaults to the launcher's. */
  #forward(chat: FlowChatElement): void {
    for (const name of CHAT_ATTRIBUTES) {
      const value = name === 'storage-key' ? this.#storageKey() : this.host.getAttribute(name)
      if (value === null) chat.removeAttribute(name)
      else if (chat.getAttribute(name) !== value) chat.setAttribute(name, value)
    }
  }

  /**
   * The launcher wears the flow's button colours and name, under the page's own attributes and
   * custom properties. Failing is harmless: it keeps its defaults, and the chat reports errors
   * itself once opened.
   */
  #loadTheme(): void {
    this.#theme?.abort()
    const abort = (this.#theme = new AbortController())
    const flow = this.prop('flow').trim()
    if (!flow) return
    const client = createFlowClient({ apiHost: this.prop('apiHost'), token: this.prop('token'), fetch: this.options.fetch })
    client.getPublishedFlow(flow, abort.signal).then(
      ({ publishedFlow }) => {
        if (abort.signal.aborted) return
        // The core validated only what it reads of theme and settings: these parts are checked here.
        const buttons = styleBoxSchema.safeParse(publishedFlow.theme?.chat?.buttons).data
        for (const [property, value] of [
          ['--fc-theme-bg', buttons?.backgroundColor],
          ['--fc-theme-color', buttons?.color],
        ] as const) {
          const colour = attributeCssValue('colour', value ?? null)
          if (colour) this.host.style.setProperty(property, colour)
          else this.host.style.removeProperty(property)
        }
        // As on the flow's share page: its title there, else the flow's name.
        const name = metadataSchema.safeParse(publishedFlow.settings?.metadata).data?.title?.trim() || publishedFlow.name?.trim()
        this.#flowName = name ? name.slice(0, 80) : ''
        this.showTitle()
      },
      () => {},
    )
  }
}

/** Marks `element` (a window) as written in the launcher's language, in its direction. */
export function speaks(element: HTMLElement, locale: Locale): void {
  element.lang = locale.lang
  element.dir = locale.dir
}

/** Dispatches one of the launcher's own events (`flowchat:open`, `flowchat:close`). */
export function emitLauncherEvent(host: Element, type: 'flowchat:open' | 'flowchat:close'): void {
  host.dispatchEvent(new CustomEvent(type, { detail: {}, bubbles: true, composed: true }))
}
