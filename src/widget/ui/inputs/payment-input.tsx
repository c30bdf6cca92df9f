import { useLayoutEffect, useRef } from 'preact/hooks'
import { adoptChunkCss } from '../chunk-css'
import { css } from '../css'
import type { InputProps } from './input-props'
import { useAnswer, useAutoFocus } from './use-answer'

const PAYMENT_CSS = css`
.payment-notice { flex-basis: 100%; margin: 0; padding: 10px 12px; border-radius: 8px; background: #f3f4f6; color: #111827; }
`

/**
 * A payment input: this chat takes no payments (the provider's script would come from its own
 * servers), so it says so, as a status screen readers announce, and Continue answers without a
 * message: the service ends the conversation there (the paid branch opens only on a payment it
 * confirmed, and it takes none).
 */
export function PaymentInput({ widget }: InputProps) {
  const button = useRef<HTMLButtonElement>(null)
  const answer = useAnswer(widget)
  const { t } = widget
  useAutoFocus(widget, button)
  useLayoutEffect(() => adoptChunkCss(button.current, PAYMENT_CSS), [])
  return (
    <div class="input-row" part="input-row payment-unavailable">
      <p class="payment-notice" role="status" part="notice">
        {t('paymentUnavailable')}
      </p>
      <button ref={button} type="button" class="button" part="button continue-button" onClick={() => answer(null, t('continue'))}>
        {t('continue')}
      </button>
    </div>
  )
}
