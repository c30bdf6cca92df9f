import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { StringId } from '../i18n/strings'
import { adoptChunkCss } from './chunk-css'
import { css } from './css'
import type { WidgetProps } from './widget'

/** The menu's look, added to the widget's styles when it first shows. */
const MENU_CSS = css`
.chat-menu {
  position: relative;
  display: flex;
  justify-content: flex-end;
  padding: 4px 8px 0;
}
.chat-menu-button {
  display: grid;
  place-items: center;
  inline-size: 32px;
  block-size: 32px;
  padding: 0;
  border: 0;
  border-radius: 6px;
  background: transparent;
  color: inherit;
  cursor: pointer;
}
.chat-menu-button:hover,
.chat-menu-button[aria-expanded='true'] {
  background: rgba(100, 116, 139, 0.18);
}
.chat-menu-button:focus-visible,
.chat-menu-item:focus-visible {
  outline: 2px solid currentColor;
  outline-offset: 2px;
}
.chat-menu-list {
  position: absolute;
  inset-block-start: 40px;
  inset-inline-end: 8px;
  z-index: 10;
  min-inline-size: 15em;
  margin: 0;
  padding: 4px;
  border: 1px solid #94a3b8;
  border-radius: 8px;
  background: #fff;
  color: #1e293b;
  box-shadow: 0 4px 16px rgba(15, 23, 42, 0.18);
  font-size: 14px;
}
[data-scheme='dark'] .chat-menu-list {
  background: #1e293b;
  color: #f1f5f9;
}
.chat-menu-item {
  padding: 8px 12px;
  border-radius: 6px;
  cursor: pointer;
}
.chat-menu-item:hover,
.chat-menu-item:focus {
  background: rgba(100, 116, 139, 0.2);
}
`

/** What the menu offers, in order. */
const ITEMS: ReadonlyArray<{ id: StringId; choose(props: WidgetProps, anchor: HTMLElement): void }> = [
  { id: 'startOver', choose: ({ widget }) => widget.conversation.reset('requested') },
  { id: 'downloadText', choose: ({ widget }, anchor) => void download(widget, anchor, 'text') },
  { id: 'downloadPage', choose: ({ widget }, anchor) => void download(widget, anchor, 'page') },
]

/** The downloads' code is a chunk of its own, loaded when the visitor asks for one. */
const download = (widget: WidgetProps['widget'], anchor: HTMLElement, kind: 'text' | 'page') =>
  import('./transcript-files').then(
    (chunk) => chunk.downloadTranscript(widget, anchor, kind),
    () => {},
  )

/**
 * The chat's menu: Start over, and the transcript as a text file or a printable page. A menu
 * button as the WAI-ARIA Authoring Practices describe it: Enter, Space or the down arrow open it
 * on its first item (the up arrow on its last), the arrows move through the items (wrapping), Home
 * and End go to the first and last, Escape closes it and gives focus back to the button, Tab and a
 * click elsewhere close it. A chunk of its own, requested as the chat shows.
 */
export function ChatMenu(props: WidgetProps) {
  const { t } = props.widget
  const [open, setOpen] = useState(false)
  /** The item that takes focus when the menu opens: 0, or -1 for the last. */
  const [first, setFirst] = useState(0)
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const list = useRef<HTMLDivElement>(null)
  const id = useId()
  useLayoutEffect(() => adoptChunkCss(root.current, MENU_CSS), [])

  const items = () => [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])]
  const show = (at: number) => {
    setFirst(at)
    setOpen(true)
  }
  const close = (refocus: boolean) => {
    setOpen(false)
    if (refocus) button.current?.focus()
  }
  // Before the next key press: a layout effect runs with the render, an effect only after paint.
  useLayoutEffect(() => {
    if (!open) return
    items().at(first)?.focus()
    // A click anywhere else (the page included, through its shadow roots) closes the menu.
    const elsewhere = (event: Event) => {
      if (root.current && !event.composedPath().includes(root.current)) setOpen(false)
    }
    document.addEventListener('pointerdown', elsewhere, true)
    return () => document.removeEventListener('pointerdown', elsewhere, true)
  }, [open, first])

  const onButtonKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
    event.preventDefault()
    show(event.key === 'ArrowUp' ? -1 : 0)
  }
  const onMenuKey = (event: KeyboardEvent) => {
    const all = items()
    const at = all.indexOf(event.target as HTMLElement)
    const move = (to: number) => {
      event.preventDefault()
      all[(to + all.length) % all.length]?.focus()
    }
    if (event.key === 'ArrowDown') move(at + 1)
    else if (event.key === 'ArrowUp') move(at - 1)
    else if (event.key === 'Home') move(0)
    else if (event.key === 'End') move(-1)
    else if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      close(true)
    } else if (event.key === 'Tab') close(false)
    else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      choose(at)
    }
  }
  const choose = (at: number) => {
    const item = ITEMS[at]
    close(true)
    if (item && root.current) item.choose(props, root.current)
  }

  return (
    <div class="chat-menu" part="menu" ref={root}>
      <button
        type="button"
        class="chat-menu-button"
        part="menu-button"
        ref={button}
        aria-label={t('chatMenu')}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => (open ? close(true) : show(0))}
        onKeyDown={onButtonKey}
      >
        <svg width="18" height="18" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
          <circle cx="8" cy="3" r="1.5" fill="currentColor" />
          <circle cx="8" cy="8" r="1.5" fill="currentColor" />
          <circle cx="8" cy="13" r="1.5" fill="currentColor" />
        </svg>
      </button>
      {open && (
        <div class="chat-menu-list" part="menu-list" id={id} role="menu" aria-label={t('chatMenu')} ref={list} onKeyDown={onMenuKey}>
          {ITEMS.map((item, at) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the menu's keydown handler activates its items (Enter, Space)
            <div key={item.id} class="chat-menu-item" role="menuitem" tabIndex={-1} onClick={() => choose(at)}>
              {t(item.id)}
            </div>
          ))}
        </div>
      )}
    </div>
  )
}
