import { useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks'
import { inputOptionsSchema } from '../../../protocol/input-options'
import { readableIssues } from '../../../protocol/issues'
import { TransportError } from '../../transport/index'
import { adoptChunkCss } from '../chunk-css'
import { ACCENT, css, v } from '../css'
import { ChoiceInput, PictureChoiceInput } from './choice-inputs'
import { DateInput } from './date-input'
import type { InputProps } from './input-props'
import { RatingInput } from './rating-input'
import { TypedTextInput } from './typed-inputs'

/** The look of the inputs in this chunk, added to the widget's styles when the first one shows. */
const RICH_INPUT_CSS = css`
/* A toggle: outlined while off, filled while on (a choice with a check), never two filled looks. */
.button[aria-pressed="false"] { background: transparent; color: inherit; box-shadow: inset 0 0 0 2px ${v('button-bg', ACCENT)}; }
.choice[aria-pressed="true"]::before { content: "✓"; margin-inline-end: 6px; }
/* The choices take the row: sending what was picked (no choice itself) goes on a line of its own, under them. */
.input-row > .choices { flex-basis: 100%; }
.rating .choices .star { min-width: 44px; padding: 0 2px; background: transparent; box-shadow: none; color: ${v('button-bg', ACCENT)}; font-size: 30px; line-height: 1; }
.choices { display: flex; flex-wrap: wrap; justify-content: flex-end; gap: 8px; max-width: 100%; }
.choices .field { flex-basis: 100%; max-width: 100%; }
.picture { display: flex; flex-direction: column; align-items: stretch; width: 180px; padding: 0; overflow: hidden; text-align: start; }
.picture img { display: block; width: 100%; aspect-ratio: 4 / 3; object-fit: cover; }
.picture span { display: block; padding: 6px 10px; }
.picture .desc { font-weight: 400; font-size: 14px; white-space: pre-wrap; }
.rating { display: flex; flex-direction: column; align-items: flex-end; gap: 6px; max-width: 100%; }
.rating .choices .button { min-width: 44px; padding: 8px; }
.rating-labels { display: flex; justify-content: space-between; gap: 16px; width: 100%; font-size: 14px; }
.range { display: flex; flex-wrap: wrap; gap: 8px; justify-content: flex-end; }
.range label { display: flex; flex-direction: column; font-size: 14px; }
`

const VIEWS = new Map([
  ['date input', DateInput],
  ['choice input', ChoiceInput],
  ['picture choice input', PictureChoiceInput],
  ['rating input', RatingInput],
  ['number input', TypedTextInput],
  ['email input', TypedTextInput],
  ['url input', TypedTextInput],
  ['phone number input', TypedTextInput],
])

/**
 * The rich inputs chunk (dates, choices, pictures, ratings, and the number, e-mail, URL and phone
 * fields), loaded beside the core script when a flow announces one of them (see input-views.ts).
 */
export function RichInput(props: InputProps) {
  const { widget, input } = props
  const anchor = useRef<HTMLSpanElement>(null)
  useLayoutEffect(() => adoptChunkCss(anchor.current, RICH_INPUT_CSS), [])
  // The core read only the text field's options: these views' are checked here, before they read them.
  const options = useMemo(() => inputOptionsSchema.safeParse(input.options ?? {}), [input])
  useEffect(() => {
    // One the widget cannot read fails the step, as an unreadable response does.
    if (!options.success) {
      const details = readableIssues(options.error)
      widget.conversation.fail(
        new TransportError('invalid-response', `The flow service sent a ${input.type} this widget cannot read`, { details }),
      )
    }
  }, [options])
  const View = VIEWS.get(input.type)
  return (
    <>
      <span ref={anchor} hidden />
      {View && options.success && <View {...props} input={{ ...input, options: options.data }} />}
    </>
  )
}
