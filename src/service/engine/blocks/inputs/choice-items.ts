import type { Block } from '../../../../protocol/index'
import { asFields, readBoolean, readString } from '../../core/field-readers'
import type { Step } from '../../core/step'
import { isItemVisible } from '../logic/conditions'

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
 * the answers accepted, so a visitor cannot pick an option the flow hid from them. Items built
 * from list variables replace the block's own when those lists have values.
 */
export function renderItems(block: Block, step: Step): RenderedItem[] {
  return dynamicItems(block, step) ?? staticItems(block, step)
}

/** Most items built from a list variable: more buttons than anyone can read are not a choice. */
export const MAX_DYNAMIC_ITEMS = 200

/**
 * `dynamicVariableId` (choice) or `dynamicItems` (picture choice): one item per list entry, all
 * leaving by the block's edge. Undefined when the lists are empty or unset, so the block's own
 * items are shown instead.
 */
function dynamicItems(block: Block, step: Step): RenderedItem[] | undefined {
  const options = asFields(block.options)
  const list = (id: string | undefined) => {
    const value = id === undefined ? undefined : step.variables[id]
    return Array.isArray(value) ? value.slice(0, MAX_DYNAMIC_ITEMS) : []
  }
  const item = (i: number, fields: Omit<RenderedItem, 'id'>): RenderedItem => ({ id: `${block.id}-dynamic-${i}`, ...fields })
  if (block.type === 'choice input') {
    const values = list(readString(options, 'dynamicVariableId'))
    return values.length > 0 ? values.map((content, i) => item(i, { content })) : undefined
  }
  const dynamic = asFields(options.dynamicItems)
  if (block.type !== 'picture choice input' || readBoolean(dynamic, 'isEnabled') !== true) return undefined
  const pictures = list(readString(dynamic, 'pictureSrcsVariableId'))
  const titles = list(readString(dynamic, 'titlesVariableId'))
  const descriptions = list(readString(dynamic, 'descriptionsVariableId'))
  if (pictures.length === 0) return undefined
  return pictures.map((pictureSrc, i) =>
    item(i, {
      pictureSrc,
      ...(titles[i] !== undefined ? { title: titles[i] } : {}),
      ...(descriptions[i] !== undefined ? { description: descriptions[i] } : {}),
    }),
  )
}

function staticItems(block: Block, step: Step): RenderedItem[] {
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
