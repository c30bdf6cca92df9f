import type { FlowChatElementOptions } from '../flow-chat-element'
import { POPUP_PROPERTIES } from '../launcher-properties'
import { focusableWithin } from './deep-focus'
import { CLOSE_ICON } from './icons'
import { emitLauncherEvent, LauncherBase, speaks } from './launcher-base'
import { POPUP_CSS } from './launcher-styles'
import { lockPageScroll } from './scroll-lock'

let instances = 0

const markup = (id: string) => `
<dialog part="dialog" aria-labelledby="${id}-title" data-role="dialog">
  <div class="sentinel" tabindex="0" data-role="start"></div>
  <div class="header" part="header"><h2 class="title" part="title" id="${id}-title" data-role="title"></h2>
  <button type="button" class="close" part="close-button" data-role="close">${CLOSE_ICON}</button></div>
  <div class="sentinel" tabindex="0" data-role="end"></div>
</dialog>`

/** The focused element, looking through shadow roots, so focus returns to the real control. */
function deepActiveElement(): HTMLElement | undefined {
  let active = document.activeElement
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
  return active instanceof HTMLElement && active !== document.body ? active : undefined
}

/**
 * `<flow-chat-popup>`: the chat in a modal dialog. The native `<dialog>` makes the page inert
 * behind it and puts it in the top layer (no z-index contest); the sentinels keep Tab cycling
 * inside even where the browser would move focus to its own toolbar.
 */
export class Popup extends LauncherBase<typeof POPUP_PROPERTIES> {
  readonly #dialog: HTMLDialogElement
  #returnFocus: HTMLElement | undefined
  #unlockScroll: (() => void) | undefined
  #autoShow: ReturnType<typeof setTimeout> | undefined

  constructor(host: HTMLElement, options: FlowChatElementOptions) {
    super(host, POPUP_PROPERTIES, options, markup(`fc-popup-${++instances}`), POPUP_CSS)
    const dialog = (this.#dialog = this.root.querySelector('dialog')!)
    // Escape: close through our own path, so focus, scroll and the event are handled once.
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault()
      this.close()
    })
    // A click on the backdrop lands on the dialog element itself, never on its content.
    dialog.addEventListener('click', (event) => {
      if (event.target === dialog) this.close()
    })
    this.part('close').addEventListener('click', () => this.close())
    this.part('start').addEventListener('focus', () => this.#focusEdge('last'))
    this.part('end').addEventListener('focus', () => this.#focusEdge('first'))
    this.localize()
  }

  get isOpen(): boolean {
    return this.#dialog.open
  }

  override connected(): void {
    super.connected()
    const delay = this.prop('autoShowDelay')
    if (this.prop('defaultOpen')) queueMicrotask(() => this.open())
    else if (delay >= 0) this.#autoShow = setTimeout(() => this.open(), delay)
  }

  open(): void {
    if (this.#dialog.open || !this.host.isConnected) return
    clearTimeout(this.#autoShow)
    this.#returnFocus = deepActiveElement()
    this.ensureChat((chat) => this.part('end').before(chat))
    this.#dialog.showModal()
    this.#unlockScroll = lockPageScroll()
    this.part('close').focus()
    emitLauncherEvent(this.host, 'flowchat:open')
  }

  close(): void {
    if (!this.#dialog.open) return
    this.#dialog.close()
    this.#unlockScroll?.()
    this.#unlockScroll = undefined
    const back = this.#returnFocus
    this.#returnFocus = undefined
    // Without scrolling: the page stays where the visitor left it.
    if (back?.isConnected) back.focus({ preventScroll: true })
    emitLauncherEvent(this.host, 'flowchat:close')
  }

  protected showTitle(): void {
    this.part('title').textContent = this.title
    this.part('close').setAttribute('aria-label', this.t('closeChat'))
    speaks(this.#dialog, this.locale)
  }

  protected release(): void {
    clearTimeout(this.#autoShow)
    this.#unlockScroll?.()
    this.#unlockScroll = undefined
  }

  #focusEdge(edge: 'first' | 'last'): void {
    const stops = focusableWithin(this.#dialog).filter((element) => !element.classList.contains('sentinel'))
    const target = edge === 'first' ? stops[0] : stops[stops.length - 1]
    ;(target ?? this.part('close')).focus()
  }
}
