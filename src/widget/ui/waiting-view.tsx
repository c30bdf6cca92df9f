import { useLayoutEffect, useRef } from 'preact/hooks'
import { adoptChunkCss } from './chunk-css'
import { css } from './css'
import type { WidgetProps } from './widget'

/** The look of the waiting view, added to the widget's styles when it first shows. */
const WAITING_CSS = css`
.waiting { display: inline-flex; align-items: center; gap: 10px; }
.waiting .typing { padding: 0; }
.field:disabled { cursor: not-allowed; opacity: 0.6; }
`

/**
 * A wait-for-webhook block: the flow waits for another system (a payment, a person, a job), so
 * the chat says so where its next bubble will come (the live region says it too), and the text
 * field stays in place, disabled. A chunk of its own, requested when a step announces the wait.
 */
export function WaitingView({ widget: { t } }: WidgetProps) {
  const anchor = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => adoptChunkCss(anchor.current, WAITING_CSS), [])
  return (
    <>
      <div class="row host" part="host-row waiting-row" ref={anchor}>
        <p class="bubble host waiting" part="bubble waiting">
          <span class="typing" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          {t('waiting')}
        </p>
      </div>
      <div class="input-row" part="input-row">
        <input class="field" part="input" disabled aria-label={t('waitingField')} placeholder={t('waitingPlaceholder')} />
        <button type="button" class="button" part="button send-button" disabled>
          {t('send')}
        </button>
      </div>
    </>
  )
}
