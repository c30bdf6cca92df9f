import { useRef } from 'preact/hooks'
import { MAX_MESSAGE_LENGTH } from '../../../protocol/chat'
import type { StringId } from '../../i18n/strings'
import type { InputProps } from './input-props'
import { isComposing, useAnswer, useAutoFocus } from './use-answer'

/** What a text-like field is: its type, placeholder and the keyboard and autofill it asks for. */
export interface TextField {
  type: 'text' | 'number' | 'email' | 'url' | 'tel'
  /** Its placeholder and accessible name, unless the flow gives one. */
  placeholder: StringId
  inputMode?: string
  autocomplete?: string
  /** More attributes of the field (a number's range). */
  attributes?: Record<string, unknown>
  /** What the guest bubble shows for an answer, when not the answer itself (a number in the chat's language). */
  label?(answer: string): string
}

const TEXT_FIELD: TextField = { type: 'text', placeholder: 'typeAnswer' }

/**
 * Text-like inputs: a text input's field, or (with `field`) a number, e-mail, URL or phone one
 * (typed-inputs.tsx, a chunk). Enter sends; in a long (multi-line) text input Shift+Enter breaks
 * the line; Enter that confirms an IME composition never sends. The service validates emails,
 * URLs and numbers.
 */
export function TextInput({ widget, input, draft, field = TEXT_FIELD }: InputProps & { field?: TextField }) {
  const options = input.options ?? {}
  const multiline = field.type === 'text' && options.isLong === true
  // The conversation holds what is typed: the page's setInputValue() edits the same draft.
  const value = draft.value
  const composing = useRef(false)
  const ref = useRef<HTMLInputElement | HTMLTextAreaElement>(null)
  const answer = useAnswer(widget)
  useAutoFocus(widget, ref)

  const placeholder = options.labels?.placeholder || widget.t(field.placeholder)
  const send = () => {
    // The field itself, not state: a keystroke and Enter can arrive before the state re-renders.
    const text = (ref.current?.value ?? value).trim()
    if (text) answer(text, field.label?.(text))
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' || isComposing(event, composing.current)) return
    if (multiline && event.shiftKey) return
    event.preventDefault()
    send()
  }
  const shared = {
    ref,
    class: 'field',
    part: 'input',
    value,
    placeholder,
    'aria-label': placeholder,
    maxLength: MAX_MESSAGE_LENGTH,
    onInput: (event: Event) => (draft.value = (event.currentTarget as HTMLInputElement).value),
    onKeyDown,
    onCompositionStart: () => (composing.current = true),
    onCompositionEnd: () => (composing.current = false),
  }

  return (
    <form
      class="input-row"
      part="input-row"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        send()
      }}
    >
      {multiline ? (
        <textarea {...shared} ref={ref as never} rows={3} />
      ) : (
        <input
          {...shared}
          {...field.attributes}
          ref={ref as never}
          // Preact 11 types narrow attributes per input type; the union here is known-good.
          type={field.type as 'text'}
          inputMode={field.inputMode as never}
          autocomplete={field.autocomplete as never}
        />
      )}
      <button type="submit" class="button" part="button send-button" disabled={!value.trim()}>
        {options.labels?.button || widget.t('send')}
      </button>
    </form>
  )
}
