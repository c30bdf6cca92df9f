import type { VersionChange, VersionChangeArea } from '../../protocol/management'

/**
 * What changed between two published versions, in a flow author's words: each group, block,
 * edge, variable and event added, removed or changed (with what changed in it), then the theme's
 * and the settings' changed values. Pure: two snapshots in, a list of changes out, in the order of
 * the newer version's flow. Moving things on the canvas is no change to visitors and is left out.
 */

type Json = Record<string, unknown>

/** Fields that never change what a visitor gets, or that name the same change twice (edges say it). */
const IGNORED_FIELDS = new Set(['id', 'graphCoordinates', 'outgoingEdgeId', 'groupId', 'blockId'])
/** Path segments too generic to help the reader ("options.labels.placeholder" reads "placeholder"). */
const QUIET_SEGMENTS = new Set(['options', 'content', 'labels'])
const MAX_VALUE_CHARS = 80

export interface DiffableFlow {
  groups?: unknown
  edges?: unknown
  events?: unknown
  variables?: unknown
  theme?: unknown
  settings?: unknown
}

export function diffVersions(before: DiffableFlow, after: DiffableFlow): VersionChange[] {
  const old = new FlowNames(before)
  const now = new FlowNames(after)
  const changes: VersionChange[] = []
  const push = (area: VersionChangeArea, change: VersionChange['change'], id: string | null, summary: string, details: string[] = []) =>
    changes.push({ area, change, id, summary, details })

  // Groups, then the blocks of each (in the newer version's order, removed ones after).
  for (const [id, group] of keyed(after.groups, before.groups)) {
    const [was, is] = group
    if (!was && is) push('group', 'added', id, `Group '${now.groupTitle(id)}' added`, [countOf(list(is.blocks).length, 'block')])
    else if (was && !is) push('group', 'removed', id, `Group '${old.groupTitle(id)}' removed`, [countOf(list(was.blocks).length, 'block')])
    else if (was && is) {
      const details = fieldChanges(was, is, ['blocks'])
      const order = (g: Json) => list(g.blocks).map((b) => String(asObject(b).id))
      const common = (ids: string[], other: string[]) => ids.filter((b) => other.includes(b))
      if (common(order(was), order(is)).join() !== common(order(is), order(was)).join()) details.push('blocks reordered')
      if (details.length > 0) push('group', 'changed', id, `Group '${now.groupTitle(id)}'`, details)
    }
  }
  for (const [id, [was, is]] of keyed(now.allBlocks(), old.allBlocks())) {
    if (!was && is) push('block', 'added', id, `${now.blockName(id)} added`)
    else if (was && !is) push('block', 'removed', id, `${old.blockName(id)} removed`)
    else if (was && is) {
      const details = blockChanges(was, is)
      const [from, to] = [old.groupOfBlock.get(id), now.groupOfBlock.get(id)]
      if (from !== to) details.unshift(`moved from group '${old.groupTitle(from)}'`)
      if (details.length > 0) push('block', 'changed', id, now.blockName(id), details)
    }
  }
  for (const [id, [was, is]] of keyed(after.edges, before.edges)) {
    if (!was && is) push('edge', 'added', id, `Link ${now.edgeName(is)} added`)
    else if (was && !is) push('edge', 'removed', id, `Link ${old.edgeName(was)} removed`)
    else if (was && is && (now.edgeName(is) !== old.edgeName(was) || fieldChanges(was, is, ['from', 'to']).length > 0)) {
      push('edge', 'changed', id, `Link ${now.edgeName(is)}`, [`was ${old.edgeName(was)}`])
    }
  }
  for (const [id, [was, is]] of keyed(after.variables, before.variables)) {
    const name = (v: Json) => `'${String(v.name ?? id)}'`
    if (!was && is) push('variable', 'added', id, `Variable ${name(is)} added`)
    else if (was && !is) push('variable', 'removed', id, `Variable ${name(was)} removed`)
    else if (was && is) {
      const details = fieldChanges(was, is, [])
      if (details.length > 0) push('variable', 'changed', id, `Variable ${name(is)}`, details)
    }
  }
  for (const [id, [was, is]] of keyed(after.events, before.events)) {
    const name = (e: Json) => `Event '${String(e.type ?? id)}'`
    if (!was && is) push('event', 'added', id, `${name(is)} added`)
    else if (was && !is) push('event', 'removed', id, `${name(was)} removed`)
    else if (was && is) {
      const details = fieldChanges(was, is, [])
      if (details.length > 0) push('event', 'changed', id, name(is), details)
    }
  }
  for (const area of ['theme', 'settings'] as const) {
    const details = fieldChanges(asObject(before[area]), asObject(after[area]), [])
    if (details.length > 0) push(area, 'changed', null, area === 'theme' ? 'Theme' : 'Settings', details)
  }
  return changes
}

/** One line per change: "Block 'Age' (number input) in group 'Age': placeholder changed from … to …". */
export function describeChange(change: VersionChange): string[] {
  if (change.details.length === 0 || change.change !== 'changed') return [change.summary]
  return change.details.map((detail) => `${change.summary}: ${detail}`)
}

/** How a version names its groups, blocks and edges. */
class FlowNames {
  readonly groups = new Map<string, Json>()
  readonly blocks = new Map<string, Json>()
  readonly groupOfBlock = new Map<string, string>()
  private readonly variables = new Map<string, string>()

  constructor(flow: DiffableFlow) {
    for (const group of list(flow.groups)) {
      const groupId = String(group.id)
      this.groups.set(groupId, group)
      for (const block of list(group.blocks)) {
        this.blocks.set(String(block.id), block)
        this.groupOfBlock.set(String(block.id), groupId)
      }
    }
    for (const variable of list(flow.variables)) this.variables.set(String(variable.id), String(variable.name ?? variable.id))
  }

  allBlocks(): Json[] {
    return [...this.blocks.values()]
  }

  groupTitle(id: string | undefined): string {
    const title = id === undefined ? undefined : this.groups.get(id)?.title
    return typeof title === 'string' && title.trim() !== '' ? title : 'untitled'
  }

  /** "Block 'How old are you?' (text) in group 'Age'", named by its words or the variable it saves to. */
  blockName(id: string): string {
    const block = this.blocks.get(id) ?? {}
    const options = asObject(block.options)
    const variable = typeof options.variableId === 'string' ? this.variables.get(options.variableId) : undefined
    const placeholder = asObject(options.labels).placeholder
    const label = plainText(block.content) || variable || (typeof placeholder === 'string' ? placeholder : '')
    const type = String(block.type ?? 'block')
    const named = label ? `Block '${clip(label, 40)}' (${type})` : `Block ${this.position(id)} (${type})`
    return `${named} in group '${this.groupTitle(this.groupOfBlock.get(id))}'`
  }

  /** "from block … to group '…'", as the author drew it. */
  edgeName(edge: Json): string {
    const from = asObject(edge.from)
    const to = asObject(edge.to)
    const source =
      typeof from.eventId === 'string'
        ? 'from the start'
        : typeof from.blockId === 'string'
          ? `from ${this.blockName(from.blockId).replace(/^Block/, 'block')}${typeof from.itemId === 'string' ? ` (one of its items)` : ''}`
          : 'from somewhere unknown'
    const target =
      typeof to.blockId === 'string'
        ? `to ${this.blockName(to.blockId).replace(/^Block/, 'block')}`
        : `to group '${this.groupTitle(typeof to.groupId === 'string' ? to.groupId : undefined)}'`
    return `${source} ${target}`
  }

  private position(id: string): string {
    const group = this.groups.get(this.groupOfBlock.get(id) ?? '')
    const index = list(group?.blocks).findIndex((block) => block.id === id)
    return `#${index + 1}`
  }
}

/** What changed in a block: its type, its words (bubbles compare as text), then every other field. */
function blockChanges(was: Json, is: Json): string[] {
  const details: string[] = []
  if (was.type !== is.type) details.push(`type changed from ${shown(was.type)} to ${shown(is.type)}`)
  const [before, after] = [plainText(was.content), plainText(is.content)]
  if (before !== after) details.push(`text changed from ${shown(before)} to ${shown(after)}`)
  else if (JSON.stringify(asObject(was.content).richText) !== JSON.stringify(asObject(is.content).richText))
    details.push('formatting changed')
  const without = (block: Json) => {
    const content = { ...asObject(block.content) }
    delete content.richText
    return { ...block, type: undefined, content }
  }
  return [...details, ...fieldChanges(without(was), without(is), [])]
}

/** Each leaf value that differs, as "path changed from … to …", "path set to …" or "path removed". */
function fieldChanges(was: Json, is: Json, skip: string[], path: string[] = []): string[] {
  const out: string[] = []
  for (const key of unionKeys(was, is)) {
    if (IGNORED_FIELDS.has(key) || (path.length === 0 && skip.includes(key))) continue
    const [a, b] = [was[key], is[key]]
    if (JSON.stringify(a) === JSON.stringify(b)) continue
    const here = [...path, key]
    if (isObject(a) && isObject(b)) out.push(...fieldChanges(a, b, skip, here))
    else if (areIdLists(a, b)) out.push(...itemChanges(a, b as Json[], here))
    else if (a === undefined || a === null) out.push(`${readable(here)} set to ${shown(b)}`)
    else if (b === undefined || b === null) out.push(`${readable(here)} removed (was ${shown(a)})`)
    else out.push(`${readable(here)} changed from ${shown(a)} to ${shown(b)}`)
  }
  return out
}

/** Lists of items with ids (a choice's buttons, a condition's comparisons): compared item by item. */
function itemChanges(was: Json[], is: Json[], path: string[]): string[] {
  const out: string[] = []
  const name = (item: Json) => {
    const words = item.content ?? item.title ?? item.name
    return typeof words === 'string' && words !== '' ? `'${clip(words, 40)}'` : `#${String(item.id)}`
  }
  for (const [, [a, b]] of keyed(is, was)) {
    if (!a && b) out.push(`${readable([...path, `item ${name(b)}`])} added`)
    else if (a && !b) out.push(`${readable([...path, `item ${name(a)}`])} removed`)
    else if (a && b) out.push(...fieldChanges(a, b, [], [...path, `item ${name(b)}`]))
  }
  return out
}

/** Pairs of [before, after] by id, in the newer list's order, then the removed ones. */
function keyed(after: unknown, before: unknown): Array<[string, [Json | undefined, Json | undefined]]> {
  const was = new Map(list(before).map((item) => [String(item.id), item]))
  const is = new Map(list(after).map((item) => [String(item.id), item]))
  const ids = [...is.keys(), ...[...was.keys()].filter((id) => !is.has(id))]
  return ids.map((id) => [id, [was.get(id), is.get(id)]])
}

function readable(path: string[]): string {
  const kept = path.filter((segment) => !QUIET_SEGMENTS.has(segment))
  return (kept.length > 0 ? kept : path).join(' › ')
}

/** The words of a bubble (rich text's leaves, paragraphs by spaces); '' for anything else. */
function plainText(content: unknown): string {
  const richText = asObject(content).richText
  if (!Array.isArray(richText)) return ''
  const words: string[] = []
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const child of node) walk(child)
    else if (isObject(node)) {
      if (typeof node.text === 'string') words.push(node.text)
      walk(node.children)
    }
  }
  for (const paragraph of richText) {
    walk(paragraph)
    words.push(' ')
  }
  return words.join('').replace(/\s+/g, ' ').trim()
}

function shown(value: unknown): string {
  if (value === undefined || value === null) return 'nothing'
  if (typeof value === 'string') return `"${clip(value, MAX_VALUE_CHARS)}"`
  return clip(JSON.stringify(value), MAX_VALUE_CHARS)
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
const countOf = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)
const asObject = (value: unknown): Json => (isObject(value) ? value : {})
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : [])
const isIdList = (value: unknown): value is Json[] =>
  Array.isArray(value) && value.every((item) => isObject(item) && typeof item.id === 'string')
const areIdLists = (a: unknown, b: unknown): a is Json[] => isIdList(a) && isIdList(b) && a.length + (b as Json[]).length > 0
const unionKeys = (a: Json, b: Json) => [...new Set([...Object.keys(b), ...Object.keys(a)])]
