import type { Signal } from '@preact/signals'
import type { ChatInput, InputOptions } from '../../../protocol/index'
import type { WidgetProps } from '../widget'

/** What every input view is given. */
export type InputProps = WidgetProps & { input: ChatInput; draft: Signal<string> }

/** What the rich inputs chunk's views are given: the input with its options checked (rich-inputs.tsx). */
export type RichInputProps = InputProps & { input: ChatInput & { options: InputOptions } }
