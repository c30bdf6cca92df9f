import { type LazyView, lazyView } from '../lazy-view'
import type { InputProps } from './input-props'

/** The input answered in the core's own text field (any unknown type gets one too). */
export const TEXT_INPUT = 'text input'

const richInputs = lazyView('input', () => import('./rich-inputs').then((chunk) => chunk.RichInput))
const fileInput = lazyView('input', () => import('./file-input').then((chunk) => chunk.FileInput))
const cards = lazyView('cards', () => import('./cards-input').then((chunk) => chunk.CardsInput))
const payment = lazyView('payment notice', () => import('./payment-input').then((chunk) => chunk.PaymentInput))

/**
 * Inputs whose view is a lazily loaded chunk, by type: where a new one (files, cards) registers.
 * Keyed by the untrusted input type in a Map, so "constructor" or "__proto__" find nothing.
 */
export const INPUT_CHUNKS: ReadonlyMap<string, LazyView<InputProps>> = new Map([
  ['number input', richInputs],
  ['email input', richInputs],
  ['url input', richInputs],
  ['phone number input', richInputs],
  ['date input', richInputs],
  ['choice input', richInputs],
  ['picture choice input', richInputs],
  ['rating input', richInputs],
  ['file input', fileInput],
  ['cards', cards],
  ['payment input', payment],
])
