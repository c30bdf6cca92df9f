import type { Block } from '../../protocol/index'
import { isAiBlockType } from './blocks/ai/ai-options'
import { asFields, type Fields, readArray, readString } from './core/field-readers'
import type { FlowIndex } from './core/flow-index'
import { isMarkdownVariable, replacePlaceholders } from './core/variables'

/**
 * Where one flow's variable values go, by variable name (linked flows pass values by name, so
 * names are what the prefill rule follows from flow to flow): the places where a value decides
 * where a call goes, whom an e-mail reaches, what a link, a frame or a redirect opens, or is read
 * as Markdown; the copies from one variable into another; and the flows the flow links to.
 * Values an integration returns (an HTTP response, an AI answer) are that integration's.
 */
export interface ValueFlows {
  /** Each name that reaches such a place, with the first place found (for the log). */
  readonly sinks: ReadonlyMap<string, string>
  /** For each name, the names a block copies its value into. */
  readonly copies: ReadonlyMap<string, ReadonlySet<string>>
  /** What its `Typebot link` blocks name (`current` included). */
  readonly links: readonly string[]
}

const cache = new WeakMap<FlowIndex, ValueFlows>()

export function valueFlows(index: FlowIndex): ValueFlows {
  let found = cache.get(index)
  if (!found) cache.set(index, (found = readValueFlows(index)))
  return found
}

function readValueFlows(index: FlowIndex): ValueFlows {
  const sinks = new Map<string, string>()
  const copies = new Map<string, Set<string>>()
  const links: string[] = []
  const nameOf = (id: string | undefined) => (id === undefined ? undefined : index.variablesById.get(id)?.name.trim())
  const sink = (texts: readonly unknown[], place: string, names = namesIn) => {
    for (const name of names(texts)) if (!sinks.has(name)) sinks.set(name, place)
  }
  const copy = (from: Iterable<string | undefined>, to: string | undefined) => {
    if (to === undefined) return
    for (const name of from) {
      if (name === undefined || name === to) continue
      let targets = copies.get(name)
      if (!targets) copies.set(name, (targets = new Set()))
      targets.add(to)
    }
  }

  for (const variable of index.variablesById.values()) {
    if (isMarkdownVariable(variable)) sinks.set(variable.name.trim(), 'text bubbles, as Markdown (isMarkdown)')
  }
  for (const { block } of index.blocks.values()) {
    const options = asFields(block.options)
    const place = (what: string) => `${what} of ${block.type} block ${block.id}`
    if (block.type === 'Webhook') {
      const webhook = asFields(options.webhook)
      const pairs = [...readArray(webhook, 'headers'), ...readArray(webhook, 'queryParams')].map(asFields)
      sink([webhook.url, ...pairs.flatMap((pair) => [pair.key, pair.value])], place('the address, headers or query'))
    } else if (isAiBlockType(block.type)) {
      sink([options.baseUrl, options.apiVersion, options.model, options.credentialsId], place('the address, model or credentials'))
    } else if (block.type === 'Email') {
      sink([...readArray(options, 'recipients'), ...readArray(options, 'cc'), ...readArray(options, 'bcc')], place('the recipients'))
    } else if (block.type === 'Redirect') {
      sink([options.url], place('the address'), namesBeforeQuery)
    } else if (block.type === 'Set variable') {
      setVariableCopies(options, nameOf, copy)
    } else if (block.type === 'choice input' || block.type === 'picture choice input' || block.type === 'cards') {
      // The visitor picks among what the block lists: a listed value is copied into its variables.
      const targets =
        block.type === 'cards'
          ? readArray(options, 'saveResponseMapping').map((m) => readString(asFields(m), 'variableId'))
          : [readString(options, 'variableId')]
      const listed = [
        ...namesIn([JSON.stringify(block.items ?? null), JSON.stringify(block.options ?? null)]),
        nameOf(readString(options, 'dynamicVariableId')),
      ]
      for (const target of targets) copy(listed, nameOf(target))
    } else if (block.type === 'Typebot link') {
      const ref = readString(options, 'typebotId')?.trim()
      if (ref) links.push(ref)
    }
    sink(bubbleAddresses(block), place('an address shown'), namesBeforeQuery)
  }
  return { sinks, copies, links }
}

/** Where a Set variable block copies values: its expression or item into its variable, or its variable into the one an item is saved in. */
function setVariableCopies(
  options: Fields,
  nameOf: (id: string | undefined) => string | undefined,
  copy: (from: Iterable<string | undefined>, to: string | undefined) => void,
): void {
  const target = nameOf(readString(options, 'variableId'))
  switch (readString(options, 'type') ?? 'Custom') {
    case 'Custom':
      copy(namesIn([options.expressionToEvaluate]), target)
      break
    case 'Append value(s)':
      copy(namesIn([options.item]), target)
      break
    case 'Pop':
    case 'Shift':
      copy([target], nameOf(readString(options, 'saveItemInVariableId')))
      break
    case 'Map item with same index':
      copy([nameOf(readString(asFields(options.mapListItemParams), 'targetListVariableId'))], target)
      break
  }
}

/** The addresses a bubble makes the visitor's browser load or open: media, frames, links in text. */
function bubbleAddresses(block: Block): unknown[] {
  const content = asFields(block.content)
  if (block.type === 'text') return linkUrls(content.richText, 0)
  if (block.type === 'image') return [content.url, asFields(content.clickLink).url]
  if (block.type === 'video' || block.type === 'audio' || block.type === 'embed') return [content.url]
  return []
}

function linkUrls(nodes: unknown, depth: number): unknown[] {
  if (!Array.isArray(nodes) || depth > 32) return []
  return nodes.flatMap((node) => {
    const fields = asFields(node)
    return [...(typeof fields.url === 'string' ? [fields.url] : []), ...linkUrls(fields.children, depth + 1)]
  })
}

/** The trimmed names of the `{{Name}}` placeholders in the texts (anything else is skipped). */
function namesIn(texts: readonly unknown[]): Set<string> {
  const names = new Set<string>()
  for (const text of texts) {
    if (typeof text !== 'string') continue
    replacePlaceholders(text, (name) => {
      names.add(name)
      return ''
    })
  }
  return names
}

/**
 * The names in the part of each address that says where it leads: before its query or fragment
 * (`https://shop.example/thanks?name={{Name}}` still leads to the shop, whatever the name).
 */
function namesBeforeQuery(texts: readonly unknown[]): Set<string> {
  return namesIn(
    texts.map((text) => {
      if (typeof text !== 'string') return text
      // Placeholders masked, so a `?` inside a variable's name is not the query's.
      const masked = text.replace(/\{\{[^{}]+\}\}/g, (placeholder) => '\u0000'.repeat(placeholder.length))
      const end = masked.search(/[?#]/)
      return end === -1 ? text : text.slice(0, end)
    }),
  )
}
