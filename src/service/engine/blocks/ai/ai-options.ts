import type { Block, VariableValue } from '../../../../protocol/index'
import { asFields, readArray, readString, toFiniteNumber } from '../../core/field-readers'
import type { AiProvider, ChatCompletionMessage, ChatCompletionRequest } from '../../core/ports'
import type { Step } from '../../core/step'

/**
 * An AI block's options, read the way builders run them (integrations.md 4.1, 4.2, 4.5): forged
 * `openai` and `mistral` blocks (`action`, `messages`, `responseMapping[{item, variableId}]`) and
 * the legacy `OpenAI` block (`task`, `advancedSettings`, `responseMapping[{valueToExtract}]`).
 */

export const CHAT_COMPLETION_ACTION = 'Create chat completion'
export const MAPPING_ITEMS = ['Message content', 'Total tokens', 'Prompt tokens', 'Completion tokens'] as const
export type MappingItem = (typeof MAPPING_ITEMS)[number]

export interface AiMapping {
  item: MappingItem
  variableId: string
}

export type AiPlan =
  | { kind: 'call'; request: ChatCompletionRequest; mappings: AiMapping[]; legacy: boolean }
  /** Nothing to call: the log to write and the walk goes on. */
  | { kind: 'skip'; status: 'info' | 'error'; description: string }

const LEGACY_DEFAULT_MODEL = 'gpt-4o-mini'

export const isAiBlockType = (type: string): boolean => type === 'openai' || type === 'mistral' || type === 'OpenAI'

/** What the block asks for, its strings filled with the current variables. */
export function planAiBlock(block: Block, step: Step): AiPlan {
  const options = asFields(block.options)
  const legacy = block.type === 'OpenAI'
  const action = readString(options, legacy ? 'task' : 'action') ?? (legacy ? CHAT_COMPLETION_ACTION : undefined)
  if (action === undefined) return { kind: 'skip', status: 'info', description: `\`${block.type}\` is not configured` }
  if (action !== CHAT_COMPLETION_ACTION) {
    return {
      kind: 'skip',
      status: 'info',
      description: `The ${block.type} action "${action}" is not supported by this service: the block was skipped`,
    }
  }
  const fill = (value: unknown) => (typeof value === 'string' && value !== '' ? step.substitute(value) : undefined)
  const model = fill(options.model)?.trim() || (legacy ? LEGACY_DEFAULT_MODEL : undefined)
  if (!model) return { kind: 'skip', status: 'error', description: 'No model provided' }
  const provider: AiProvider = block.type === 'mistral' ? 'mistral' : 'openai'
  const credentialsId = readString(options, 'credentialsId')?.trim() || undefined
  const baseUrl = fill(options.baseUrl)?.trim() || undefined
  const settings = legacy ? asFields(options.advancedSettings) : options
  const temperature = toFiniteNumber(typeof settings.temperature === 'string' ? fill(settings.temperature) : settings.temperature)
  const request: ChatCompletionRequest = {
    provider,
    ...(credentialsId ? { credentialsId } : {}),
    ...(baseUrl ? { baseUrl } : {}),
    model,
    messages: buildMessages(readArray(options, 'messages'), step, fill),
    ...(temperature !== undefined ? { temperature } : {}),
  }
  return { kind: 'call', request, mappings: readMappings(block), legacy }
}

/** The block's response mapping (an entry without `item` maps the message content). */
export function readMappings(block: Block): AiMapping[] {
  const legacy = block.type === 'OpenAI'
  const mappings: AiMapping[] = []
  for (const entry of readArray(asFields(block.options), 'responseMapping')) {
    const fields = asFields(entry)
    const variableId = readString(fields, 'variableId')
    const item = readString(fields, legacy ? 'valueToExtract' : 'item') ?? 'Message content'
    if (variableId && (MAPPING_ITEMS as readonly string[]).includes(item)) mappings.push({ item: item as MappingItem, variableId })
  }
  return mappings
}

/** The variable the answer streams into: the first mapping of the message content. */
export const streamVariableId = (mappings: AiMapping[]): string | undefined =>
  mappings.find((mapping) => mapping.item === 'Message content')?.variableId

function buildMessages(items: unknown[], step: Step, fill: (value: unknown) => string | undefined): ChatCompletionMessage[] {
  const messages: ChatCompletionMessage[] = []
  const push = (role: ChatCompletionMessage['role'], content: string | undefined) => {
    if (content !== undefined && content.trim() !== '') messages.push({ role, content })
  }
  for (const item of items) {
    const fields = asFields(item)
    const role = readString(fields, 'role')
    if (role === 'system' || role === 'user' || role === 'assistant') push(role, fill(fields.content))
    else if (role === 'Dialogue') {
      const turns = listOf(step.variables[readString(fields, 'dialogueVariableId') ?? ''])
      // Proper alternation from `startsBy` (builders make every turn after the first a user's).
      const first = readString(fields, 'startsBy') === 'assistant' ? 'assistant' : 'user'
      for (const [i, text] of turns.entries()) push(i % 2 === 0 ? first : first === 'user' ? 'assistant' : 'user', text)
    } else if (role === 'Messages sequence ✨') {
      const sequence = asFields(fields.content)
      const users = listOf(step.variables[readString(sequence, 'userMessagesVariableId') ?? ''])
      const assistants = listOf(step.variables[readString(sequence, 'assistantMessagesVariableId') ?? ''])
      for (let i = 0; i < Math.max(users.length, assistants.length); i++) {
        push('user', users[i])
        push('assistant', assistants[i])
      }
    }
  }
  return messages
}

/** A list variable's items; a single value is a list of one, an unset one a list of none. */
function listOf(value: VariableValue | undefined): string[] {
  if (value === undefined || value === null) return []
  if (Array.isArray(value)) return value
  return [String(value)]
}
