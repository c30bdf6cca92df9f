import type { ChoiceItem } from '../../../protocol/index'
import { safeImageUrl } from '../../content/url'
import { ChoiceList } from './choice-list'
import type { RichInputProps } from './input-props'

const text = (value: string | null | undefined) => (typeof value === 'string' && value.trim() ? value : undefined)

/** Buttons with text; the answer is the item's `value`, else its text. */
export function ChoiceInput({ widget, input }: RichInputProps) {
  const options = input.options ?? {}
  const labelOf = (item: ChoiceItem) => text(item.content) ?? text(item.value) ?? ''
  return (
    <ChoiceList
      widget={widget}
      items={input.items ?? []}
      multiple={options.isMultipleChoice === true}
      searchable={options.isSearchable === true}
      searchPlaceholder={options.searchInputPlaceholder ?? undefined}
      sendLabel={options.buttonLabel ?? undefined}
      answerOf={(item) => text(item.value) ?? item.content ?? ''}
      labelOf={labelOf}
      renderItem={labelOf}
      itemClass="choice"
      groupLabel="choices"
    />
  )
}

/** Cards with a picture, title and description; the answer is `value`, else title, else id. */
export function PictureChoiceInput({ widget, input }: RichInputProps) {
  const options = input.options ?? {}
  const labelOf = (item: ChoiceItem) => text(item.title) ?? text(item.value) ?? text(item.description) ?? ''
  return (
    <ChoiceList
      widget={widget}
      items={input.items ?? []}
      multiple={options.isMultipleChoice === true}
      searchable={options.isSearchable === true}
      searchPlaceholder={options.searchInputPlaceholder ?? undefined}
      sendLabel={options.buttonLabel ?? undefined}
      answerOf={(item) => text(item.value) ?? text(item.title) ?? item.id}
      labelOf={labelOf}
      renderItem={(item) => {
        const src = safeImageUrl(item.pictureSrc, widget.base)
        const title = text(item.title)
        return (
          <>
            {src && <img src={src} alt={title ? '' : labelOf(item)} loading="lazy" referrerpolicy="no-referrer" />}
            {title && <span>{title}</span>}
            {text(item.description) && <span class="desc">{item.description}</span>}
            {!src && !title && <span>{labelOf(item) || item.id}</span>}
          </>
        )
      }}
      itemClass="picture"
      groupLabel="pictureChoices"
    />
  )
}
