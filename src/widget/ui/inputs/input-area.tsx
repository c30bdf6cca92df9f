import { useEffect } from 'preact/hooks'
import { widgetWarning, type ActiveInput } from '../../chat/index'
import { useWidget } from '../widget-context'
import { INPUT_CHUNKS, TEXT_KINDS } from './input-views'
import { TextInput } from './text-input'

function InputView({ active }: { active: ActiveInput }) {
  const { emit } = useWidget()
  const { input } = active
  const kind = TEXT_KINDS.get(input.type)
  const lazy = INPUT_CHUNKS.get(input.type)
  useEffect(() => {
    if (!kind && !lazy) {
      emit('flowchat:log', widgetWarning('unknown-input', `Unknown input type "${input.type}": a text field is shown instead`))
    }
  }, [])
  // An unknown input, or one whose chunk cannot load, still gets a text field: the visitor is never stuck.
  const text = <TextInput input={input} draft={active.draft} kind={kind ?? 'text'} />
  return lazy ? <lazy.View input={input} fallback={text} /> : text
}

/** The input the flow waits for; a new `key` per input resets its local state. */
export function InputArea() {
  const { conversation } = useWidget()
  const active = conversation.input.value
  return active ? <InputView key={active.key} active={active} /> : null
}
