import { useEffect } from 'preact/hooks'
import { type ActiveInput, widgetWarning } from '../../chat/index'
import type { WidgetProps } from '../widget'
import { INPUT_CHUNKS, TEXT_INPUT } from './input-views'
import { TextInput } from './text-input'

function InputView({ active, widget }: WidgetProps & { active: ActiveInput }) {
  const { input } = active
  const lazy = INPUT_CHUNKS.get(input.type)
  useEffect(() => {
    if (input.type !== TEXT_INPUT && !lazy) {
      widget.emit('flowchat:log', widgetWarning('unknown-input', `Unknown input type "${input.type}": a text field is shown instead`))
    }
  }, [])
  // An unknown input, or one whose chunk cannot load, still gets a text field: the visitor is never stuck.
  const text = <TextInput widget={widget} input={input} draft={active.draft} />
  return lazy ? <lazy.View widget={widget} input={input} draft={active.draft} fallback={text} /> : text
}

/** The input the flow waits for; a new `key` per input resets its local state. */
export function InputArea({ widget }: WidgetProps) {
  const active = widget.conversation.input.value
  return active ? <InputView key={active.key} active={active} widget={widget} /> : null
}
