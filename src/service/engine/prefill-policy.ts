import { isAiBlockType } from './blocks/ai/ai-options'
import { isInputType } from './blocks/block-kinds'
import { asFields, readString } from './core/field-readers'
import type { FlowIndex } from './core/flow-index'
import type { StartOptions } from './core/types'
import { replacePlaceholders, variableIdByName } from './core/variables'

type Prefilled = NonNullable<StartOptions['prefilledVariables']>

/** The prefilled values the flow admits, and the names of those it does not (to log). */
export function admitPrefilled(index: FlowIndex, prefilled: Prefilled | undefined): { admitted: Prefilled; refused: string[] } {
  const admitted: Prefilled = {}
  const refused: string[] = []
  const allows = prefillPolicy(index)
  for (const [name, value] of Object.entries(prefilled ?? {})) {
    const id = variableIdByName(index, name)
    if (id !== undefined && !allows(id)) refused.push(name)
    else admitted[name] = value
  }
  return { admitted, refused }
}

/**
 * Which variables `prefilledVariables` may set when a chat starts. Whoever starts the chat (any
 * page embedding the flow, anyone calling startChat) chooses those values, so a variable that
 * configures an integration (where an HTTP request or an AI call goes, its headers, its query,
 * the AI model) is not prefilled unless the flow says so on the variable: `isPrefillable: true`.
 * `isPrefillable: false` keeps any variable from being prefilled. A variable an input asks for
 * may be prefilled all the same: the visitor chooses its value anyway.
 */
export function prefillPolicy(index: FlowIndex): (variableId: string) => boolean {
  const configuring = new Set<string>()
  const asked = new Set<string>()
  for (const { block } of index.blocks.values()) {
    const options = asFields(block.options)
    if (isInputType(block.type)) {
      const variableId = readString(options, 'variableId')
      if (variableId) asked.add(variableId)
    }
    for (const text of configuringTexts(block.type, options)) {
      replacePlaceholders(text, (name) => {
        const id = index.variablesByName.get(name)?.id
        if (id !== undefined) configuring.add(id)
        return ''
      })
    }
  }
  return (variableId) => {
    const declared = asFields(index.variablesById.get(variableId)).isPrefillable
    if (typeof declared === 'boolean') return declared
    return !configuring.has(variableId) || asked.has(variableId)
  }
}

/** The options of a block that say where its call goes and how (not what it carries). */
function configuringTexts(type: string, options: Record<string, unknown>): string[] {
  if (type === 'Webhook') {
    const webhook = asFields(options.webhook)
    const pairs = [webhook.headers, webhook.queryParams].flatMap((items) => (Array.isArray(items) ? items : []))
    return [webhook.url, ...pairs.flatMap((pair) => [asFields(pair).key, asFields(pair).value])].filter(isString)
  }
  if (isAiBlockType(type)) return [options.baseUrl, options.apiVersion, options.model, options.credentialsId].filter(isString)
  return []
}

const isString = (value: unknown): value is string => typeof value === 'string'
