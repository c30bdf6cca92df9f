import { focusableWithin } from './deep-focus'
import type { FlowChatElement } from './flow-chat-element'
import { emitLauncherEvent, upgradePrefilled, FORWARDED_ATTRIBUTES, LaunchedChat, type PrefilledVariables } from './inner-chat'
import { applyPageColours, loadLauncherTheme } from './launcher-theme'
import { adoptCss, POPUP_CSS } from './launcher-styles'
import { lockPageScroll } from './scroll-lock'

export const POPUP_TAG_NAME = 'flow-chat-popup'

/** Public surface of `<flow-chat-popup>` beyond HTMLElement. */
export interface FlowChatPopupElement extends HTMLElement {
  readonly isOpen: boolean
  /** The `<flow-chat>` inside, once first opened (null before: no session exists yet). */
  readonly chat: FlowChatElement | null
  prefilledVariables: PrefilledVariables
  open(): void
  close(): void
  toggle(): void
  /** Starts the conversation again (keeping a remembered one, when the flow remembers users). */
  reload(): void
  /** Forgets the remembered conversation and starts a new one. */
  reset(): void
}

const LENGTH = /^\d{1,4}(\.\d+)?(px|rem|em|vh|vw|dvh|%)?$/
const sizeValue = (raw: string | null) => {
  const value = raw?.trim() ?? ''
  if (!LENGTH.test(value)) return undefined
  return /\d$/.test(value) ? `${value}px` : value
}

/**
 * `<flow-chat-popup>`: the chat in a modal dialog. The native `<dialog>` makes the page inert
 * behind it and puts it in the top layer (no z-index contest); the sentinels keep Tab cycling
 * inside even where the browser would move focus to its own toolbar.
 */
export function createFlowChatPopupElement(): new () => FlowChatPopupElement {
  let instances = 0

  class FlowChatPopup extends HTMLElement implements FlowChatPopupElement {
    static observedAttributes = [...FORWARDED_ATTRIBUTES, 'max-width', 'max-height', 'button-color', 'icon-color']

    #id = `fc-popup-${++instances}`
    #root: ShadowRoot | undefined
    #dialog: HTMLDialogElement | undefined
    #chat = new LaunchedChat(this)
    #returnFocus: HTMLElement | undefined
    #unlockScroll: (() => void) | undefined
    #autoShow: ReturnType<typeof setTimeout> | undefined
    #abort: AbortController | undefined
    #flowName = ''

    get chat() {
      return this.#chat.element
    }
    get isOpen() {
      return this.#dialog?.open === true
    }
    get prefilledVariables() {
      return this.#chat.prefilled
    }
    set prefilledVariables(value) {
      this.#chat.prefilled = value
    }

    connectedCallback() {
      upgradePrefilled(this)
      if (!this.#root) this.#render()
      this.#applyStyles()
      this.#loadTheme()
      if (this.hasAttribute('default-open')) queueMicrotask(() => this.open())
      else if (this.hasAttribute('auto-show-delay')) {
        const delay = Number(this.getAttribute('auto-show-delay'))
        if (Number.isFinite(delay) && delay >= 0) this.#autoShow = setTimeout(() => this.open(), delay)
      }
    }

    disconnectedCallback() {
      queueMicrotask(() => {
        if (this.isConnected) return
        clearTimeout(this.#autoShow)
        this.#abort?.abort()
        this.#unlockScroll?.()
        this.#unlockScroll = undefined
      })
    }

    attributeChangedCallback(name: string, previous: string | null, next: string | null) {
      if (previous === next || !this.#root) return
      if (this.#chat.attributeChanged(name)) {
        if (name === 'flow' || name === 'api-host' || name === 'token') this.#loadTheme()
        // The label is also the launcher's own title.
        if (name === 'label') this.#applyStyles()
      } else this.#applyStyles()
    }

    open() {
      const dialog = this.#dialog
      if (!dialog || dialog.open || !this.isConnected) return
      clearTimeout(this.#autoShow)
      this.#returnFocus = deepActiveElement()
      this.#chat.ensure((chat) => this.#part('end').before(chat))
      dialog.showModal()
      this.#unlockScroll = lockPageScroll()
      this.#part('close').focus()
      emitLauncherEvent(this, 'flowchat:open')
    }

    close() {
      const dialog = this.#dialog
      if (!dialog?.open) return
      dialog.close()
      this.#unlockScroll?.()
      this.#unlockScroll = undefined
      const back = this.#returnFocus
      this.#returnFocus = undefined
      // Without scrolling: the page stays where the visitor left it.
      if (back?.isConnected) back.focus({ preventScroll: true })
      emitLauncherEvent(this, 'flowchat:close')
    }

    toggle() {
      if (this.isOpen) this.close()
      else this.open()
    }

    reload() {
      this.#chat.reload()
    }

    reset() {
      this.#chat.reset()
    }

    #part(name: string): HTMLElement {
      return this.#root!.querySelector<HTMLElement>(`[data-role="${name}"]`)!
    }

    #render() {
      const root = (this.#root = this.attachShadow({ mode: 'open' }))
      const id = this.#id
      root.innerHTML = `
<dialog part="dialog" aria-labelledby="${id}-title">
  <div class="sentinel" tabindex="0" data-role="start"></div>
  <div class="header" part="header"><h2 class="title" part="title" id="${id}-title" data-role="title"></h2>
  <button type="button" class="close" part="close-button" data-role="close" aria-label="Close chat">×</button></div>
  <div class="sentinel" tabindex="0" data-role="end"></div>
</dialog>`
      adoptCss(root, POPUP_CSS)
      const dialog = (this.#dialog = root.querySelector('dialog')!)
      // Escape: close through our own path, so focus, scroll and the event are handled once.
      dialog.addEventListener('cancel', (event) => {
        event.preventDefault()
        this.close()
      })
      // A click on the backdrop lands on the dialog element itself, never on its content.
      dialog.addEventListener('click', (event) => {
        if (event.target === dialog) this.close()
      })
      this.#part('close').addEventListener('click', () => this.close())
      this.#part('start').addEventListener('focus', () => this.#focusEdge('last'))
      this.#part('end').addEventListener('focus', () => this.#focusEdge('first'))
      this.#syncLabel()
    }

    #focusEdge(edge: 'first' | 'last') {
      const stops = focusableWithin(this.#dialog!).filter((element) => !element.classList.contains('sentinel'))
      const target = edge === 'first' ? stops[0] : stops[stops.length - 1]
      ;(target ?? this.#part('close')).focus()
    }

    #syncLabel() {
      this.#part('title').textContent = this.getAttribute('label')?.trim() || this.#flowName || 'Chat'
    }

    #applyStyles() {
      for (const [attribute, property] of [['max-width', '--fc-popup-max-width'], ['max-height', '--fc-popup-max-height']] as const) {
        const value = sizeValue(this.getAttribute(attribute))
        if (value) this.style.setProperty(property, value)
        else this.style.removeProperty(property)
      }
      applyPageColours(this)
      if (this.#root) this.#syncLabel()
    }

    /** The header wears the flow's button colours and name, unless the page set its own. */
    #loadTheme() {
      this.#abort?.abort()
      const abort = (this.#abort = new AbortController())
      loadLauncherTheme(this, abort.signal, (name) => {
        this.#flowName = name
        this.#syncLabel()
      })
    }
  }
  return FlowChatPopup
}

/** The focused element, looking through shadow roots, so focus returns to the real control. */
function deepActiveElement(): HTMLElement | undefined {
  let active = document.activeElement
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
  return active instanceof HTMLElement && active !== document.body ? active : undefined
}
