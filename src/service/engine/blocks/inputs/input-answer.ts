import type { Block, VariableValue } from '../../../../protocol/index'
import { asFields, type Fields, readBoolean, readString, toFiniteNumber } from '../../core/field-readers'
import type { BlockLocation } from '../../core/flow-index'
import type { Step } from '../../core/step'
import { recordUserLine } from '../../core/transcript'
import type { Answer } from '../../core/types'
import { cardVariables, matchCardPath, renderCards } from './cards'
import { matchChoice } from './choice-answers'
import { itemLabel, renderItems, storedValue } from './choice-items'
import { parseDate, parseEmail, parseNumber, parsePhone, parseRating, parseUrl } from './input-formats'

export type AnswerOutcome =
  | {
      ok: true
      /** What the input's variable receives (a list for several choices). */
      stored: VariableValue
      /** The answer as recorded in the result. */
      answer: string
      /** What the visitor's bubble should show; differs from the message when normalised. */
      display: string
      /** The edge to leave by: the chosen item's, else the block's. */
      edgeId?: string
      /** An optional input the visitor skipped: nothing is recorded. */
      skipped?: boolean
      /** Other variables the answer sets, by id (a card's `saveResponseMapping`). */
      sets?: Record<string, string>
    }
  | { ok: false; retryMessage: string }

/** Validates the visitor's message for an input block; invalid answers get a retry message. */
export function acceptAnswer(block: Block, message: string, step: Step): AnswerOutcome {
  const options = asFields(block.options)
  const accepted = parseByType(block, options, message, step)
  if (accepted === undefined) return { ok: false, retryMessage: retryMessage(block.type, options, step) }
  const edgeId = accepted.edgeId ?? block.outgoingEdgeId ?? undefined
  return { ok: true, ...accepted, ...(edgeId ? { edgeId } : {}) }
}

/**
 * A valid answer kept: in the input's variable, in the result's answers (an unmerged linked
 * flow's result when the walk is in one), in the transcript, and as the widget should show it.
 */
export function keepAnswer(step: Step, location: BlockLocation, message: string, outcome: Extract<AnswerOutcome, { ok: true }>): void {
  if (outcome.skipped) return
  const variableId = readString(asFields(location.block.options), 'variableId')
  const known = variableId !== undefined && step.index.variablesById.has(variableId) ? variableId : undefined
  if (known) step.variables[known] = outcome.stored
  for (const [id, value] of Object.entries(outcome.sets ?? {})) step.variables[id] = value
  const answer: Answer = {
    blockId: location.block.id,
    groupId: location.group.id,
    ...(known ? { variableId: known } : {}),
    value: outcome.answer,
    ...(outcome.display === outcome.answer ? {} : { display: outcome.display }),
  }
  const resultId = step.resultId
  if (resultId !== step.context.resultId && resultId !== undefined) answer.resultId = resultId
  step.answers.push(answer)
  if (step.transcript) recordUserLine(step.transcript, outcome.display)
  if (outcome.display !== message.trim()) step.lastMessageNewFormat ??= outcome.display
}

type Accepted = {
  stored: VariableValue
  answer: string
  display: string
  edgeId?: string
  skipped?: boolean
  sets?: Record<string, string>
}

const single = (value: string | undefined): Accepted | undefined =>
  value === undefined ? undefined : { stored: value, answer: value, display: value }

function parseByType(block: Block, options: Fields, message: string, step: Step): Accepted | undefined {
  switch (block.type) {
    case 'text input':
      return single(message.trim() === '' ? undefined : message.trim())
    case 'number input':
      return single(parseNumber(message, numberOption(options, 'min', step), numberOption(options, 'max', step)))
    case 'email input':
      return single(parseEmail(message))
    case 'url input':
      return single(parseUrl(message))
    case 'phone number input':
      return single(parsePhone(message))
    case 'date input':
      return single(parseDate(message, readBoolean(options, 'isRange') === true))
    case 'rating input': {
      const { startsAt, length } = ratingRange(options)
      return single(parseRating(message, startsAt, length))
    }
    case 'choice input':
    case 'picture choice input':
      return parseChoice(block, options, message, step)
    case 'file input':
      return parseFiles(options, message, step)
    case 'cards':
      return parseCard(block, message, step)
    default:
      return single(message)
  }
}

/**
 * A file input's answer: the URLs of files this session uploaded to it, joined with ", " (only
 * the first for a single-file input); nothing, when the input is optional, skips it.
 */
function parseFiles(options: Fields, message: string, step: Step): Accepted | undefined {
  if (message.trim() === '')
    return readBoolean(options, 'isRequired') === false ? { stored: null, answer: '', display: '', skipped: true } : undefined
  const uploaded = step.context.uploadedFiles ?? new Set<string>()
  const urls = message.split(', ').map((url) => url.trim())
  const kept = readBoolean(options, 'isMultipleAllowed') === true ? urls : urls.slice(0, 1)
  // The very URLs the service gave: another host, scheme or spelling naming the same id is not one of them.
  if (!kept.every((url) => uploaded.has(url))) return undefined
  const text = kept.join(', ')
  return { stored: text, answer: text, display: text }
}

function parseChoice(block: Block, options: Fields, message: string, step: Step): Accepted | undefined {
  const isPicture = block.type === 'picture choice input'
  const isMultiple = readBoolean(options, 'isMultipleChoice') === true
  const items = matchChoice(message, renderItems(block, step), isPicture, isMultiple)
  if (!items) return undefined
  const values = items.map((item) => storedValue(item, isPicture))
  const display = items.map((item) => itemLabel(item, isPicture)).join(', ')
  if (isMultiple) return { stored: values, answer: values.join(', '), display }
  const [item] = items
  return { stored: values[0] ?? '', answer: values[0] ?? '', display, edgeId: item?.outgoingEdgeId }
}

/** A card's button, by its path id (or a card's title): its card answers, its edge branches. */
function parseCard(block: Block, message: string, step: Step): Accepted | undefined {
  const chosen = matchCardPath(renderCards(block, step), message)
  if (!chosen) return undefined
  const { card, path } = chosen
  const answer = card.title ?? card.imageUrl ?? path.text ?? path.id
  const display = path.text?.trim() ? path.text : answer
  return {
    stored: answer,
    answer,
    display,
    sets: cardVariables(block, step, card, path),
    ...(path.outgoingEdgeId ? { edgeId: path.outgoingEdgeId } : {}),
  }
}

/** Options exported as numbers, numeric strings or `{{Variable}}` placeholders. */
export function numberOption(options: Fields, key: string, step: Step): number | undefined {
  const raw = options[key]
  return toFiniteNumber(typeof raw === 'string' ? step.substitute(raw) : raw)
}

export function ratingRange(options: Fields): { startsAt: number; length: number } {
  return { startsAt: toFiniteNumber(options.startsAt) ?? 0, length: toFiniteNumber(options.length) ?? 10 }
}

function retryMessage(type: string, options: Fields, step: Step): string {
  const custom = readString(options, 'retryMessageContent')
  if (custom !== undefined && custom.trim() !== '') return step.substitute(custom)
  switch (type) {
    case 'number input': {
      const min = numberOption(options, 'min', step)
      const max = numberOption(options, 'max', step)
      if (min !== undefined && max !== undefined) return `Please enter a number between ${min} and ${max}.`
      if (min !== undefined) return `Please enter a number of at least ${min}.`
      if (max !== undefined) return `Please enter a number no greater than ${max}.`
      return 'Please enter a valid number.'
    }
    case 'email input':
      return "This email doesn't seem to be valid. Can you type it again?"
    case 'url input':
      return "This URL doesn't seem to be valid. Can you type it again?"
    case 'phone number input':
      return "This phone number doesn't seem to be valid. Can you type it again?"
    case 'date input':
      return readBoolean(options, 'isRange') === true
        ? 'Please pick a start date and an end date.'
        : "This date doesn't seem to be valid. Please pick a date."
    case 'rating input': {
      const { startsAt, length } = ratingRange(options)
      return `Please pick a rating from ${startsAt} to ${length}.`
    }
    case 'file input':
      return 'Please upload a file.'
    case 'cards':
      return "Please pick one of the cards' buttons."
    case 'choice input':
    case 'picture choice input':
      return readBoolean(options, 'isMultipleChoice') === true
        ? 'Please pick one or more of the options.'
        : 'Please pick one of the options.'
    default:
      return 'Please type an answer.'
  }
}
