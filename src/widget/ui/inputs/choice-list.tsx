import type { ComponentChildren } from 'preact'
import { useRef, useState } from 'preact/hooks'
import type { ChoiceItem } from '../../../protocol/index'
import type { StringId } from '../../i18n/strings'
import type { WidgetProps } from '../widget'
import { useAnswer, useAutoFocus } from './use-answer'

export interface ChoiceListProps extends WidgetProps {
  items: readonly ChoiceItem[]
  multiple: boolean
  searchable: boolean
  searchPlaceholder: string | undefined
  sendLabel: string | undefined
  /** The answer an item stands for. */
  answerOf(item: ChoiceItem): string
  /** The item's visible text: what filtering matches and what the guest bubble shows. */
  labelOf(item: ChoiceItem): string
  renderItem(item: ChoiceItem): ComponentChildren
  itemClass: string
  groupLabel: StringId
}

/**
 * Buttons for a choice: one click answers a single choice; a multiple choice toggles buttons
 * (`aria-pressed`) and sends the chosen answers, in the flow's order, joined with `, `. The guest
 * bubble shows what the visitor read on the buttons, not the values sent.
 */
export function ChoiceList(props: ChoiceListProps) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set())
  const [filter, setFilter] = useState('')
  const first = useRef<HTMLElement>(null)
  const answer = useAnswer(props.widget)
  const { t } = props.widget
  useAutoFocus(props.widget, first)

  const needle = filter.trim().toLowerCase()
  const visible = needle ? props.items.filter((item) => props.labelOf(item).toLowerCase().includes(needle)) : props.items
  const toggle = (id: string) => {
    const next = new Set(chosen)
    if (!next.delete(id)) next.add(id)
    setChosen(next)
  }
  const labelOrAnswer = (item: ChoiceItem) => props.labelOf(item).trim() || props.answerOf(item)
  const sendChosen = () => {
    const picked = props.items.filter((item) => chosen.has(item.id))
    if (picked.length === 0) return
    answer(picked.map(props.answerOf).join(', '), picked.map(labelOrAnswer).join(', '))
  }

  return (
    <div class="input-row" part="input-row">
      {/* biome-ignore lint/a11y/useSemanticElements: a group of buttons; a <fieldset> needs a <legend> and brings the browser's box, the name comes from aria-label */}
      <div class="choices" part="choices" role="group" aria-label={t(props.groupLabel)}>
        {props.searchable && (
          <input
            ref={first as never}
            class="field"
            part="input search-input"
            type="search"
            placeholder={props.searchPlaceholder || t('filterChoices')}
            aria-label={props.searchPlaceholder || t('filterChoices')}
            value={filter}
            onInput={(event) => setFilter((event.currentTarget as HTMLInputElement).value)}
          />
        )}
        {visible.map((item, index) => (
          <button
            key={item.id}
            ref={index === 0 && !props.searchable ? (first as never) : undefined}
            type="button"
            class={`button ${props.itemClass}`}
            part={`button ${props.itemClass}`}
            aria-pressed={props.multiple ? chosen.has(item.id) : undefined}
            onClick={() => (props.multiple ? toggle(item.id) : answer(props.answerOf(item), labelOrAnswer(item)))}
          >
            {props.renderItem(item)}
          </button>
        ))}
      </div>
      {props.multiple && (
        <button type="button" class="button" part="button send-button" disabled={chosen.size === 0} onClick={sendChosen}>
          {props.sendLabel || t('send')}
        </button>
      )}
      {props.multiple && (
        <span class="sr-only" role="status">
          {chosen.size > 0 && t('chosen', { count: chosen.size })}
        </span>
      )}
    </div>
  )
}
