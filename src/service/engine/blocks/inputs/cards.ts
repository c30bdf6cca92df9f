import type { Block, VariableValue } from '../../../../protocol/index'
import { asFields, type Fields, readArray, readString } from '../../core/field-readers'
import type { Step } from '../../core/step'
import { formatValue, singleVariableName, valueByName } from '../../core/variables'
import { isItemVisible } from '../logic/conditions'

/** A card's button: its id is the answer, its edge the branch. */
export interface CardPath {
  id: string
  text?: string
  outgoingEdgeId?: string
}

/** A card as the visitor sees it: visible, variables filled in. */
export interface RenderedCard {
  id: string
  imageUrl?: string
  title?: string
  description?: string
  paths: CardPath[]
  /** Kept on the service: saved by `saveResponseMapping`, never sent. */
  internalValue?: string
}

/** Most cards one block shows (dynamic cards included), and the longest text of a card's field. */
export const MAX_CARDS = 50
export const MAX_CARD_TEXT = 2_000

const FIELDS = ['imageUrl', 'title', 'description'] as const

/**
 * The cards of a `cards` block as the step shows them: items whose display condition fails are
 * left out (and cannot be answered), texts filled in and cut to MAX_CARD_TEXT. One item whose
 * image, title or description is a single `{{List}}` holding a list becomes one card per entry
 * (the titles' list drives, then the images', the descriptions', the internal values'), its other
 * fields repeated, its buttons' ids `dynamic-card-{i}-path-{j}`.
 */
export function renderCards(block: Block, step: Step): RenderedCard[] {
  const items = readArray(asFields(block), 'items').map(asFields)
  const visible = items.filter((item) => isItemVisible(asFields(item.options), step.conditionScope))
  const dynamic = items.length === 1 && visible.length === 1 ? dynamicCards(visible[0]!, step) : undefined
  return (dynamic ?? visible.map((item) => card(item, step, (field) => fill(item, field, step)))).slice(0, MAX_CARDS)
}

function card(item: Fields, step: Step, value: (field: string) => string | undefined, pathId?: (j: number) => string): RenderedCard {
  const out: RenderedCard = { id: readString(item, 'id') ?? '', paths: [] }
  for (const field of FIELDS) {
    const text = value(field)
    if (text !== undefined && text.trim() !== '') out[field] = text.slice(0, MAX_CARD_TEXT)
  }
  const internal = value('internalValue')
  if (internal !== undefined) out.internalValue = internal
  readArray(item, 'paths').forEach((raw, j) => {
    const path = asFields(raw)
    const id = pathId ? pathId(j) : readString(path, 'id')
    if (!id) return
    const text = readString(path, 'text')
    const edge = readString(path, 'outgoingEdgeId')
    out.paths.push({
      id,
      ...(text !== undefined ? { text: step.substitute(text).slice(0, MAX_CARD_TEXT) } : {}),
      ...(edge ? { outgoingEdgeId: edge } : {}),
    })
  })
  return out
}

const rawField = (item: Fields, field: string) =>
  field === 'internalValue' ? readString(asFields(item.options), field) : readString(item, field)

function fill(item: Fields, field: string, step: Step): string | undefined {
  const raw = rawField(item, field)
  return raw === undefined ? undefined : step.substitute(raw)
}

function dynamicCards(item: Fields, step: Step): RenderedCard[] | undefined {
  const lists = new Map<string, VariableValue[]>()
  for (const field of ['title', 'imageUrl', 'description', 'internalValue']) {
    const name = singleVariableName(rawField(item, field) ?? '')
    const value = name === undefined ? undefined : valueByName(step.index, step.variables, name)
    if (Array.isArray(value)) lists.set(field, value.slice(0, MAX_CARDS))
  }
  const driving = lists.get('title') ?? lists.get('imageUrl') ?? lists.get('description') ?? lists.get('internalValue')
  if (!driving || driving.length === 0) return undefined
  return driving.map((_, i) =>
    card(
      { ...item, id: `${readString(item, 'id') ?? 'card'}-${i}` },
      step,
      (field) => {
        const list = lists.get(field)
        return list ? (list[i] === undefined ? undefined : formatValue(list[i])) : fill(item, field, step)
      },
      (j) => `dynamic-card-${i}-path-${j}`,
    ),
  )
}

/** A card's button the answer names: by path id, else a card whose title is the text (its first button). */
export function matchCardPath(cards: readonly RenderedCard[], message: string): { card: RenderedCard; path: CardPath } | undefined {
  const text = message.trim()
  for (const card of cards) {
    const path = card.paths.find((candidate) => candidate.id === text)
    if (path) return { card, path }
  }
  const byTitle = cards.find((card) => card.title !== undefined && card.title.trim().toLowerCase() === text.toLowerCase())
  const first = byTitle?.paths[0]
  return byTitle && first ? { card: byTitle, path: first } : undefined
}

const MAPPED_FIELDS = new Map<string, (card: RenderedCard, path: CardPath) => string | undefined>(
  Object.entries({
    'Image URL': (card: RenderedCard) => card.imageUrl,
    Title: (card: RenderedCard) => card.title,
    Description: (card: RenderedCard) => card.description,
    Button: (_card: RenderedCard, path: CardPath) => path.text,
    'Internal Value': (card: RenderedCard) => card.internalValue,
  }),
)

/** `saveResponseMapping`: the chosen card's fields into variables (ids the flow knows only). */
export function cardVariables(block: Block, step: Step, card: RenderedCard, path: CardPath): Record<string, string> {
  const sets: Record<string, string> = {}
  for (const raw of readArray(asFields(block.options), 'saveResponseMapping')) {
    const mapping = asFields(raw)
    const variableId = readString(mapping, 'variableId')
    const read = MAPPED_FIELDS.get(readString(mapping, 'field') ?? '')
    const value = read?.(card, path)
    if (variableId && step.index.variablesById.has(variableId) && value !== undefined) sets[variableId] = value
  }
  return sets
}

/** What the widget is sent: no internal values, no edges. */
export const cardView = ({ internalValue: _, paths, ...card }: RenderedCard) => ({
  ...card,
  paths: paths.map(({ id, text }) => ({ id, ...(text !== undefined ? { text } : {}) })),
})
