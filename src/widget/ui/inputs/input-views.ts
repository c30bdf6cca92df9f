import type { ChatInput } from '../../../protocol/index'
import { lazyView, type LazyView } from '../lazy-view'
import type { TextKind } from './text-input'

/** Inputs answered by typing, in the core's text field (any unknown type gets one too). */
export const TEXT_KINDS: ReadonlyMap<string, TextKind> = new Map<string, TextKind>([
  ['text input', 'text'],
  ['number input', 'number'],
  ['email input', 'email'],
  ['url input', 'url'],
  ['phone number input', 'phone'],
])

const richInputs = lazyView('input', () => import('./rich-inputs').then((chunk) => chunk.RichInput))

/**
 * Inputs whose view is a lazily loaded chunk, by type: where a new one (files, cards) registers.
 * Keyed by the untrusted input type in a Map, so "constructor" or "__proto__" find nothing.
 */
export const INPUT_CHUNKS: ReadonlyMap<string, LazyView<{ input: ChatInput }>> = new Map([
  ['date input', richInputs],
  ['choice input', richInputs],
  ['picture choice input', richInputs],
  ['rating input', richInputs],
])
