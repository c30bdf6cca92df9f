import { useRef, useState } from 'preact/hooks'
import type { RichInputProps } from './input-props'
import { localDates } from './local-formats'
import { useAnswer, useAutoFocus } from './use-answer'

/**
 * A date (or date and time); a range sends `from to to`, as the service expects, in ISO form
 * whatever the language; the guest bubble shows it as the language writes dates.
 */
export function DateInput({ widget, input }: RichInputProps) {
  const options = input.options ?? {}
  const type = options.hasTime === true ? 'datetime-local' : 'date'
  const range = options.isRange === true
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const first = useRef<HTMLInputElement>(null)
  const answer = useAnswer(widget)
  useAutoFocus(widget, first)
  const complete = range ? Boolean(from && to) : Boolean(from)
  const read = (set: (value: string) => void) => (event: Event) => set((event.currentTarget as HTMLInputElement).value)

  return (
    <form
      class="input-row"
      part="input-row"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        if (complete)
          answer(range ? `${from} to ${to}` : from, localDates(range ? [from, to] : [from], widget.locale.lang, type !== 'date'))
      }}
    >
      {range ? (
        <div class="range">
          <label>
            {options.labels?.from || widget.t('from')}
            <input ref={first} class="field" part="input" type={type} value={from} onInput={read(setFrom)} />
          </label>
          <label>
            {options.labels?.to || widget.t('to')}
            <input class="field" part="input" type={type} value={to} onInput={read(setTo)} />
          </label>
        </div>
      ) : (
        <input ref={first} class="field" part="input" type={type} aria-label={widget.t('date')} value={from} onInput={read(setFrom)} />
      )}
      <button type="submit" class="button" part="button send-button" disabled={!complete}>
        {options.labels?.button || widget.t('send')}
      </button>
    </form>
  )
}
