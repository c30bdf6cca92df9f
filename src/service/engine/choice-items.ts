import type { Block } from '../../protocol/index'
import { isItemVisible } from './conditions'
import { asFields, readString } from './field-readers'
import type { Step } from './step'

/** A choice or picture-choice item as the visitor sees it: visible, variables filled in. */
export type RenderedItem = {
  id: string
  outgoingEdgeId?: string
  content?: string
  value?: string
  title?: string
  description?: string
  pictureSrc?: string
}

const TEXT_FIELDS = ['content', 'value', 'title', 'description', 'pictureSrc'] as const

/**
 * Items whose `displayCondition` fails are left out, both from what the widget shows and from
 * the answers accepted, so a visitor cannot pick an option the flow hid from them.
 */
export function renderItems(block: Block, step: Step): RenderedItem[] {
  const rendered: RenderedItem[] = []
  for (const item of block.items ?? []) {
    const fields = asFields(item)
    if (!isItemVisible(fields, step.conditionScope)) continue
    const out: RenderedItem = { id: item.id }
    if (item.outgoingEdgeId) out.outgoingEdgeId = item.outgoingEdgeId
    for (const key of TEXT_FIELDS) {
      const text = readString(fields, key)
      if (text !== undefined) out[key] = step.substitute(text)
    }
    rendered.push(out)
  }
  return rendered
}

/** What answering with this item stores: `value ?? content` (choice), `value ?? title ?? id` (picture). */
export function storedValue(item: RenderedItem, isPicture: boolean): string {
  if (isPicture) return nonEmpty(item.value) ?? nonEmpty(item.title) ?? item.id
  return nonEmpty(item.value) ?? item.content ?? ''
}

/** What the visitor reads on the item. */
export function itemLabel(item: RenderedItem, isPicture: boolean): string {
  if (isPicture) return nonEmpty(item.title) ?? storedValue(item, true)
  return nonEmpty(item.content) ?? storedValue(item, false)
}

function nonEmpty(text: string | undefined): string | undefined {
  return text !== undefined && text.trim() !== '' ? text : undefined
}
