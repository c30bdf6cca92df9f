import { safeImageUrl } from '../../content/url'
import type { FlowChatElementOptions } from '../flow-chat-element'
import { BUBBLE_PROPERTIES } from '../launcher-properties'
import { CHAT_ICON, CLOSE_ICON } from './icons'
import { emitLauncherEvent, LauncherBase, speaks } from './launcher-base'
import { BUBBLE_CSS } from './launcher-styles'
import { rememberOpen, wasLeftOpen } from './open-state'
import { watchVisualViewport } from './visual-viewport'

let instances = 0

const markup = (id: string) => `
<div class="preview" part="preview" data-role="preview" hidden>
  <img data-role="preview-avatar" part="preview-avatar" alt="" hidden>
  <button type="button" class="preview-text" part="preview-message" data-role="preview-text"></button>
  <button type="button" class="dismiss" part="preview-dismiss" data-role="dismiss">${CLOSE_ICON}</button>
</div>
<section class="window" part="window" data-role="window" id="${id}-window" role="dialog" aria-labelledby="${id}-title" hidden>
  <div class="header" part="header"><h2 class="title" part="title" id="${id}-title" data-role="title"></h2>
  <button type="button" class="close" part="close-button" data-role="close">${CLOSE_ICON}</button></div>
</section>
<button type="button" class="launcher" part="button" data-role="launcher" aria-controls="${id}-window" aria-expanded="false"></button>`

/**
 * `<flow-chat-bubble>`: a launcher in a corner of the page and the chat window it opens (a
 * non-modal dialog that follows the visual viewport), with a preview message beside it.
 */
export class Bubble extends LauncherBase<typeof BUBBLE_PROPERTIES> {
  #previewTimer: ReturnType<typeof setTimeout> | undefined
  #previewDismissed = false
  #unwatchViewport: (() => void) | undefined

  constructor(host: HTMLElement, options: FlowChatElementOptions) {
    super(host, BUBBLE_PROPERTIES, options, markup(`fc-bubble-${++instances}`), BUBBLE_CSS)
    this.part('launcher').addEventListener('click', () => (this.isOpen ? this.close() : this.open()))
    this.part('close').addEventListener('click', () => this.close())
    this.part('preview-text').addEventListener('click', () => this.open())
    this.part('dismiss').addEventListener('click', () => {
      this.#previewDismissed = true
      this.hidePreviewMessage()
      this.part('launcher').focus()
    })
    this.part('window').addEventListener('keydown', (event) => {
      if (event.key !== 'Escape') return
      event.stopPropagation()
      this.close()
    })
    this.#fillPreview()
    this.localize()
  }

  get isOpen(): boolean {
    return this.host.hasAttribute('open')
  }

  override connected(): void {
    super.connected()
    clearTimeout(this.#previewTimer)
    if (this.isOpen && !this.#unwatchViewport) this.#unwatchViewport = watchVisualViewport(this.host)
    if (this.prop('previewMessage') && !this.#previewDismissed) {
      this.#previewTimer = setTimeout(() => this.showPreviewMessage(), this.prop('previewDelay'))
    }
    // Opened on load, it leaves the page's focus alone: the visitor did not ask for it now.
    if (this.prop('defaultOpen') || wasLeftOpen(this.#flow())) this.#show(false)
  }

  open(): void {
    this.#show(true)
  }

  close(): void {
    if (!this.isOpen) return
    const hadFocus = this.host.matches(':focus-within')
    this.host.removeAttribute('open')
    this.part('window').hidden = true
    this.showTitle()
    this.#unwatchViewport?.()
    this.#unwatchViewport = undefined
    if (hadFocus) this.part('launcher').focus()
    rememberOpen(this.#flow(), false)
    emitLauncherEvent(this.host, 'flowchat:close')
  }

  showPreviewMessage(text?: string): void {
    clearTimeout(this.#previewTimer)
    if (this.isOpen) return
    if (text !== undefined) this.host.setAttribute('preview-message', text)
    if (this.prop('previewMessage')) this.part('preview').hidden = false
  }

  hidePreviewMessage(): void {
    clearTimeout(this.#previewTimer)
    this.part('preview').hidden = true
  }

  protected override optionChanged(roles: readonly string[]): void {
    if (roles.includes('preview')) this.#fillPreview()
    if (roles.includes('icon')) this.showTitle()
  }

  protected release(): void {
    clearTimeout(this.#previewTimer)
    this.#unwatchViewport?.()
    this.#unwatchViewport = undefined
  }

  /**
   * The launcher's state, name and icon (the page's picture or a speech bubble while closed, a
   * cross while open), the window's title and the other buttons' names, in the chat's language.
   */
  protected showTitle(): void {
    const launcher = this.part('launcher')
    const open = this.isOpen
    launcher.setAttribute('aria-expanded', String(open))
    launcher.setAttribute('aria-label', this.t(open ? 'closeChatNamed' : 'openChat', { name: this.title }))
    this.part('title').textContent = this.title
    this.part('close').setAttribute('aria-label', this.t('closeChat'))
    this.part('dismiss').setAttribute('aria-label', this.t('dismiss'))
    for (const part of ['window', 'preview']) speaks(this.part(part), this.locale)
    const picture = open ? null : safeImageUrl(this.prop('iconUrl'))
    const icon = picture ?? (open ? 'close' : 'chat')
    if (launcher.dataset.icon === icon) return
    launcher.dataset.icon = icon
    if (!picture) launcher.innerHTML = open ? CLOSE_ICON : CHAT_ICON
    else {
      const image = document.createElement('img')
      image.alt = ''
      image.src = picture
      launcher.replaceChildren(image)
    }
  }

  #show(moveFocus: boolean): void {
    if (this.isOpen) return
    this.hidePreviewMessage()
    this.ensureChat((chat) => this.part('window').append(chat))
    this.host.toggleAttribute('open', true)
    this.part('window').hidden = false
    this.showTitle()
    this.#unwatchViewport = watchVisualViewport(this.host)
    if (moveFocus) this.part('close').focus()
    rememberOpen(this.#flow(), true)
    emitLauncherEvent(this.host, 'flowchat:open')
  }

  #fillPreview(): void {
    const message = this.prop('previewMessage')
    this.part('preview-text').textContent = message
    const avatar = this.part<HTMLImageElement>('preview-avatar')
    const url = safeImageUrl(this.prop('previewAvatar'))
    avatar.hidden = !url
    if (url) avatar.src = url
    if (!message) this.hidePreviewMessage()
  }

  #flow(): string {
    return this.prop('flow')
  }
}
