import type { RefObject } from 'preact'
import { useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks'
import { type Card, cardsSchema } from '../../../protocol/cards'
import { readableIssues } from '../../../protocol/issues'
import { safeImageUrl } from '../../content/url'
import { TransportError } from '../../transport/index'
import { adoptChunkCss } from '../chunk-css'
import { ACCENT, css, v } from '../css'
import type { InputProps } from './input-props'
import { useAnswer, useAutoFocus } from './use-answer'

/** A row of cards that scrolls sideways (one card and a bit of the next on a phone), each snapping into place. */
const CARDS_CSS = css`
.input-row > .cards { flex-basis: 100%; }
.cards { display: flex; gap: 12px; margin: 0; padding: 4px 2px 10px; list-style: none; overflow-x: auto; overscroll-behavior-x: contain; scroll-snap-type: x mandatory; scroll-padding-inline: 2px; }
.card { flex: 0 0 min(240px, 80%); display: flex; flex-direction: column; scroll-snap-align: start; overflow: hidden; border-radius: var(--fct-radius, 12px); background: ${v('host-bubble-bg', '#f3f4f6')}; color: ${v('host-bubble-color', 'inherit')}; }
.card img { display: block; width: 100%; aspect-ratio: 16 / 9; object-fit: cover; }
.card-body { display: flex; flex: 1; flex-direction: column; gap: 6px; padding: 10px 12px 12px; }
.card-title { margin: 0; font-size: inherit; font-weight: 600; line-height: inherit; }
.card-text { margin: 0; font-size: 14px; white-space: pre-wrap; }
.card-buttons { display: flex; flex-direction: column; gap: 6px; margin-top: auto; }
.card-buttons .button { width: 100%; }
.card:focus-within { box-shadow: 0 0 0 2px ${v('button-bg', ACCENT)}; }
@media (prefers-reduced-motion: no-preference) { .cards { scroll-behavior: smooth; } }
`

const text = (value: string | null | undefined) => (typeof value === 'string' && value.trim() ? value : undefined)

/**
 * A `cards` input: a list of cards, each with its picture, a title a screen reader finds among the
 * page's headings (level 2: docs/decisions/2026-11-28-card-titles-headings.md), text and buttons; a button
 * answers with its path id and shows its text as the visitor's bubble. Tab goes through the
 * buttons; the left and right arrows (reversed right to left) move to the previous or next card.
 */
export function CardsInput({ widget, input }: InputProps) {
  const anchor = useRef<HTMLUListElement>(null)
  const first = useRef<HTMLButtonElement>(null)
  const answer = useAnswer(widget)
  const { t } = widget
  useLayoutEffect(() => adoptChunkCss(anchor.current, CARDS_CSS), [])
  useAutoFocus(widget, first)
  const cards = useMemo(() => cardsSchema.safeParse(input.items ?? []), [input])
  useEffect(() => {
    if (!cards.success) {
      widget.conversation.fail(
        new TransportError('invalid-response', 'The flow service sent cards this widget cannot read', {
          details: readableIssues(cards.error),
        }),
      )
    }
  }, [cards])
  const list = cards.success ? cards.data : []

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    const target = event.target as HTMLElement
    const items = [...(anchor.current?.children ?? [])] as HTMLElement[]
    const at = items.findIndex((item) => item.contains(target))
    const rtl = getComputedStyle(anchor.current!).direction === 'rtl'
    const next = items[at + ((event.key === 'ArrowRight') !== rtl ? 1 : -1)]
    const button = next?.querySelector('button')
    if (!button) return
    event.preventDefault()
    button.focus({ preventScroll: true })
    // The whole card comes into view, not just enough of its button (the row snaps to it).
    next!.scrollIntoView({ block: 'nearest', inline: 'nearest' })
  }

  return (
    <div class="input-row" part="input-row">
      <ul ref={anchor} class="cards" part="cards" aria-label={t('cards')} onKeyDown={onKeyDown}>
        {list.map((card, index) => (
          <CardView
            key={card.id}
            card={card}
            base={widget.base}
            label={t('cardPosition', { index: index + 1, count: list.length })}
            firstRef={index === 0 ? first : undefined}
            onPick={answer}
          />
        ))}
      </ul>
    </div>
  )
}

function CardView({
  card,
  base,
  label,
  firstRef,
  onPick,
}: {
  card: Card
  base: string | undefined
  label: string
  firstRef: RefObject<HTMLButtonElement | null> | undefined
  onPick: (message: string, label?: string) => void
}) {
  const src = safeImageUrl(card.imageUrl, base)
  const title = text(card.title)
  return (
    <li class="card" part="card" aria-label={title ? `${title} (${label})` : label}>
      {src && <img src={src} alt="" loading="lazy" referrerpolicy="no-referrer" />}
      <div class="card-body">
        {title && <h2 class="card-title">{title}</h2>}
        {text(card.description) && <p class="card-text">{card.description}</p>}
        <div class="card-buttons">
          {(card.paths ?? []).map((path, index) => (
            <button
              key={path.id}
              ref={index === 0 ? firstRef : undefined}
              type="button"
              class="button"
              part="button card-button"
              onClick={() => onPick(path.id, text(path.text) ?? title ?? path.id)}
            >
              {text(path.text) ?? title ?? path.id}
            </button>
          ))}
        </div>
      </div>
    </li>
  )
}
