import type { FunctionComponent } from 'preact'
import { useEffect } from 'preact/hooks'
import type { ChatInput } from '../../../protocol/index'
import { widgetWarning, type ActiveInput } from '../../chat/index'
import { useWidget } from '../widget-context'
import { ChoiceInput, PictureChoiceInput } from './choice-inputs'
import { DateInput } from './date-input'
import { RatingInput } from './rating-input'
import { TextInput, type TextKind } from './text-input'

// Maps keyed by the untrusted input type: "constructor" or "__proto__" find nothing.
const TEXT_KINDS = new Map<string, TextKind>([
  ['text input', 'text'],
  ['number input', 'number'],
  ['email input', 'email'],
  ['url input', 'url'],
  ['phone number input', 'phone'],
])

const OTHER_INPUTS = new Map<string, FunctionComponent<{ input: ChatInput }>>([
  ['date input', DateInput],
  ['choice input', ChoiceInput],
  ['picture choice input', PictureChoiceInput],
  ['rating input', RatingInput],
])

function InputView({ active }: { active: ActiveInput }) {
  const { emit } = useWidget()
  const { input } = active
  const kind = TEXT_KINDS.get(input.type)
  const Other = OTHER_INPUTS.get(input.type)
  useEffect(() => {
    if (!kind && !Other) {
      emit('flowchat:log', widgetWarning('unknown-input', `Unknown input type "${input.type}": a text field is shown instead`))
    }
  }, [])
  // An unknown input still gets a text field, so the visitor is never stuck.
  return Other ? <Other input={input} /> : <TextInput input={input} draft={active.draft} kind={kind ?? 'text'} />
}

/** The input the flow waits for; a new `key` per input resets its local state. */
export function InputArea() {
  const { conversation } = useWidget()
  const active = conversation.input.value
  return active ? <InputView key={active.key} active={active} /> : null
}
