import { useId, useRef, useState } from 'preact/hooks'
import type { RichInputProps } from './input-props'
import { localNumber } from './local-formats'
import { useAnswer, useAutoFocus } from './use-answer'

const int = (value: unknown, fallback: number, min: number, max: number) =>
  typeof value === 'number' && Number.isInteger(value) ? Math.min(max, Math.max(min, value)) : fallback

/**
 * A scale from `startsAt` (0) to `length` (10), as numbers or stars. With one-click submit a
 * press answers; otherwise the visitor picks, then sends. Custom SVG icons are not rendered:
 * markup from a flow never reaches the DOM.
 */
export function RatingInput({ widget, input }: RichInputProps) {
  const options = input.options ?? {}
  const start = int(options.startsAt, 0, 0, 1)
  const end = int(options.length, 10, 1, 20)
  const values = Array.from({ length: end - start + 1 }, (_, i) => start + i)
  const stars = options.buttonType === 'Icons'
  const oneClick = options.isOneClickSubmitEnabled === true
  const [picked, setPicked] = useState<number | null>(null)
  const first = useRef<HTMLButtonElement>(null)
  const send = useAnswer(widget)
  // Sent as plain digits; shown as the language writes numbers. Stars carry no number on screen:
  // the guest bubble says "4/5" rather than a bare "4".
  const { lang } = widget.locale
  const answer = (value: number) =>
    send(String(value), stars ? `${localNumber(value, lang)}/${localNumber(end, lang)}` : localNumber(value, lang))
  useAutoFocus(widget, first)
  const { left, right, button } = options.labels ?? {}
  // The end labels describe the scale for screen readers too, not only on screen.
  const labelsId = useId()

  return (
    <div class="input-row" part="input-row">
      <div class="rating" part="rating">
        {/* biome-ignore lint/a11y/useSemanticElements: a group of buttons; a <fieldset> needs a <legend> and brings the browser's box, the name comes from aria-label */}
        <div
          class="choices"
          role="group"
          aria-label={widget.t('rating')}
          aria-describedby={left || right ? `${labelsId}-left ${labelsId}-right` : undefined}
        >
          {values.map((value, index) => (
            <button
              key={value}
              ref={index === 0 ? first : undefined}
              type="button"
              class={stars ? 'button star' : 'button'}
              part="button rating-button"
              aria-label={stars ? widget.t('ratingValue', { value: localNumber(value, lang), max: localNumber(end, lang) }) : undefined}
              aria-pressed={oneClick ? undefined : picked === value}
              onClick={() => (oneClick ? answer(value) : setPicked(value))}
            >
              {stars ? (picked !== null && value <= picked ? '★' : '☆') : localNumber(value, lang)}
            </button>
          ))}
        </div>
        {(left || right) && (
          <div class="rating-labels">
            <span id={`${labelsId}-left`}>{left}</span>
            <span id={`${labelsId}-right`}>{right}</span>
          </div>
        )}
        {!oneClick && (
          <button
            type="button"
            class="button"
            part="button send-button"
            disabled={picked === null}
            onClick={() => picked !== null && answer(picked)}
          >
            {button || widget.t('send')}
          </button>
        )}
      </div>
    </div>
  )
}
