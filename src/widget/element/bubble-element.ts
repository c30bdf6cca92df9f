import type { FlowChatElement } from './flow-chat-element'
import { emitLauncherEvent, upgradePrefilled, FORWARDED_ATTRIBUTES, LaunchedChat, type PrefilledVariables } from './inner-chat'
import { applyPageColours, loadLauncherTheme } from './launcher-theme'
import { adoptCss, BUBBLE_CSS } from './launcher-styles'
import { rememberOpen, wasLeftOpen } from './open-state'
import { watchVisualViewport } from './visual-viewport'

export const BUBBLE_TAG_NAME = 'flow-chat-bubble'

/** Public surface of `<flow-chat-bubble>` beyond HTMLElement. */
export interface FlowChatBubbleElement extends HTMLElement {
  readonly isOpen: boolean
  /** The `<flow-chat>` inside, once first opened (null before: no session exists yet). */
  readonly chat: FlowChatElement | null
  prefilledVariables: PrefilledVariables
  open(): void
  close(): void
  toggle(): void
  showPreviewMessage(text?: string): void
  hidePreviewMessage(): void
  /** Starts the conversation again (keeping a remembered one, when the flow remembers users). */
  reload(): void
  /** Forgets the remembered conversation and starts a new one. */
  reset(): void
}

const CHAT_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z"/></svg>'
const STYLE_ATTRIBUTES: Record<string, string> = {
  'button-size': '--fc-bubble-size',
  offset: '--fc-bubble-offset',
  'max-width': '--fc-bubble-max-width',
  'max-height': '--fc-bubble-max-height',
  'z-index': '--fc-bubble-z-index',
}
const LENGTH = /^\d{1,4}(\.\d+)?(px|rem|em|vh|vw|dvh|%)$/

/** Only lengths (or an integer z-index) reach the style: attributes may come from anywhere. */
function styleValue(name: string, raw: string | null): string | undefined {
  const value = raw?.trim() ?? ''
  if (name === 'z-index') return /^-?\d{1,10}$/.test(value) ? value : undefined
  if (/^\d{1,4}$/.test(value)) return `${value}px`
  return LENGTH.test(value) ? value : undefined
}

const safeImageUrl = (raw: string | null) => {
  try {
    const url = new URL(raw ?? '', document.baseURI)
    return raw && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : undefined
  } catch {
    return undefined
  }
}

/** Creates the class in a function so importing the library never touches `HTMLElement`. */
export function createFlowChatBubbleElement(): new () => FlowChatBubbleElement {
  let instances = 0

  class FlowChatBubble extends HTMLElement implements FlowChatBubbleElement {
    static observedAttributes = [...FORWARDED_ATTRIBUTES, ...Object.keys(STYLE_ATTRIBUTES), 'button-color', 'icon-color', 'icon-url', 'preview-message', 'preview-avatar']

    #id = `fc-bubble-${++instances}`
    #root: ShadowRoot | undefined
    #chat = new LaunchedChat(this)
    #abort: AbortController | undefined
    #previewTimer: ReturnType<typeof setTimeout> | undefined
    #previewDismissed = false
    #unwatchViewport: (() => void) | undefined
    #flowName = ''

    get chat() {
      return this.#chat.element
    }
    get isOpen() {
      return this.hasAttribute('open')
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
      const delay = Number(this.getAttribute('preview-delay') ?? 0)
      clearTimeout(this.#previewTimer)
      if (this.isOpen && !this.#unwatchViewport) this.#unwatchViewport = watchVisualViewport(this)
      if (this.getAttribute('preview-message') && !this.#previewDismissed) {
        this.#previewTimer = setTimeout(() => this.showPreviewMessage(), Number.isFinite(delay) && delay > 0 ? delay : 0)
      }
      // Opened on load, it leaves the page's focus alone: the visitor did not ask for it now.
      if (this.hasAttribute('default-open') || wasLeftOpen(this.#flow())) this.#show(false)
    }

    disconnectedCallback() {
      queueMicrotask(() => {
        if (this.isConnected) return
        this.#abort?.abort()
        clearTimeout(this.#previewTimer)
        this.#unwatchViewport?.()
        this.#unwatchViewport = undefined
      })
    }

    attributeChangedCallback(name: string, previous: string | null, next: string | null) {
      if (previous === next || !this.#root) return
      if (this.#chat.attributeChanged(name)) {
        if (name === 'flow' || name === 'api-host' || name === 'token') this.#loadTheme()
        // The label is also the launcher's own title.
        if (name === 'label') this.#applyStyles()
      } else if (name === 'preview-message' || name === 'preview-avatar') this.#fillPreview()
      else this.#applyStyles()
    }

    open() {
      this.#show(true)
    }

    #show(moveFocus: boolean) {
      if (this.isOpen || !this.#root) return
      this.hidePreviewMessage()
      this.#chat.ensure((chat) => this.#part('window').append(chat))
      this.toggleAttribute('open', true)
      this.#part('window').hidden = false
      this.#syncButton()
      this.#unwatchViewport = watchVisualViewport(this)
      if (moveFocus) this.#part('close').focus()
      rememberOpen(this.#flow(), true)
      emitLauncherEvent(this, 'flowchat:open')
    }

    close() {
      if (!this.isOpen || !this.#root) return
      const hadFocus = this.matches(':focus-within')
      this.removeAttribute('open')
      this.#part('window').hidden = true
      this.#syncButton()
      this.#unwatchViewport?.()
      this.#unwatchViewport = undefined
      if (hadFocus) this.#part('launcher').focus()
      rememberOpen(this.#flow(), false)
      emitLauncherEvent(this, 'flowchat:close')
    }

    toggle() {
      if (this.isOpen) this.close()
      else this.open()
    }

    showPreviewMessage(text?: string) {
      clearTimeout(this.#previewTimer)
      if (!this.#root || this.isOpen) return
      if (text !== undefined) this.setAttribute('preview-message', text)
      if (!this.getAttribute('preview-message')) return
      this.#part('preview').hidden = false
    }

    hidePreviewMessage() {
      clearTimeout(this.#previewTimer)
      if (this.#root) this.#part('preview').hidden = true
    }

    reload() {
      this.#chat.reload()
    }

    reset() {
      this.#chat.reset()
    }

    #flow() {
      return this.getAttribute('flow') ?? ''
    }

    #part(name: string): HTMLElement {
      return this.#root!.querySelector<HTMLElement>(`[data-role="${name}"]`)!
    }

    #render() {
      const root = (this.#root = this.attachShadow({ mode: 'open' }))
      const id = this.#id
      root.innerHTML = `
<div class="preview" part="preview" data-role="preview" hidden>
  <img data-role="preview-avatar" part="preview-avatar" alt="" hidden>
  <button type="button" class="preview-text" part="preview-message" data-role="preview-text"></button>
  <button type="button" class="dismiss" part="preview-dismiss" data-role="dismiss" aria-label="Dismiss message">×</button>
</div>
<section class="window" part="window" data-role="window" id="${id}-window" role="dialog" aria-labelledby="${id}-title" hidden>
  <div class="header" part="header"><h2 class="title" part="title" id="${id}-title" data-role="title"></h2>
  <button type="button" class="close" part="close-button" data-role="close" aria-label="Close chat">×</button></div>
</section>
<button type="button" class="launcher" part="button" data-role="launcher" aria-controls="${id}-window" aria-expanded="false">${CHAT_ICON}</button>`
      adoptCss(root, BUBBLE_CSS)
      this.#part('launcher').addEventListener('click', () => this.toggle())
      this.#part('close').addEventListener('click', () => this.close())
      this.#part('preview-text').addEventListener('click', () => this.open())
      this.#part('dismiss').addEventListener('click', () => {
        this.#previewDismissed = true
        this.hidePreviewMessage()
        this.#part('launcher').focus()
      })
      this.#part('window').addEventListener('keydown', (event) => {
        if (event.key === 'Escape') {
          event.stopPropagation()
          this.close()
        }
      })
      this.#fillPreview()
      this.#syncButton()
    }

    #fillPreview() {
      this.#part('preview-text').textContent = this.getAttribute('preview-message') ?? ''
      const avatar = this.#part('preview-avatar') as HTMLImageElement
      const url = safeImageUrl(this.getAttribute('preview-avatar'))
      avatar.hidden = !url
      if (url) avatar.src = url
      if (!this.getAttribute('preview-message')) this.hidePreviewMessage()
    }

    #label() {
      return this.getAttribute('label')?.trim() || this.#flowName || 'Chat'
    }

    #syncButton() {
      const launcher = this.#part('launcher')
      launcher.setAttribute('aria-expanded', String(this.isOpen))
      launcher.setAttribute('aria-label', `${this.isOpen ? 'Close' : 'Open'} chat: ${this.#label()}`)
      this.#part('title').textContent = this.#label()
      const icon = safeImageUrl(this.getAttribute('icon-url'))
      const current = launcher.querySelector('img')
      if (icon && current?.src !== icon) {
        const image = document.createElement('img')
        image.alt = ''
        image.src = icon
        launcher.replaceChildren(image)
      } else if (!icon && current) launcher.innerHTML = CHAT_ICON
    }

    #applyStyles() {
      for (const [attribute, property] of Object.entries(STYLE_ATTRIBUTES)) {
        const value = styleValue(attribute, this.getAttribute(attribute))
        if (value) this.style.setProperty(property, value)
        else this.style.removeProperty(property)
      }
      applyPageColours(this)
      if (this.#root) this.#syncButton()
    }

    /** The launcher wears the flow's button colours, unless the page set its own. */
    #loadTheme() {
      this.#abort?.abort()
      const abort = (this.#abort = new AbortController())
      loadLauncherTheme(this, abort.signal, (name) => {
        this.#flowName = name
        if (this.#root) this.#syncButton()
      })
    }
  }
  return FlowChatBubble
}
