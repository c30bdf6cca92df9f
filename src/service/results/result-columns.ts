import { INPUT_TYPES, type VariableValue } from '../../protocol/index'
import type { ResultColumn, ResultRow } from '../../protocol/results'
import type { FlowRecord } from '../store/flows-repository'
import type { VersionColumnRow } from '../store/published-flows-repository'
import type { ResultRecord } from '../store/results-repository'
import type { Store } from '../store/store'

/**
 * The columns of a flow's results table: one per input block and one per variable no input
 * block saves to, named as the flow names them: an input block by the variable it saves to,
 * else by its group's title; a variable by its name (a name used twice gets " (2)", " (3)"…, so
 * names are unique, as CSV headers and JSON Lines keys need). Blocks and variables come from
 * the flow as it is now, then from every version ever published (results were collected with
 * those), so an answer to a block since removed still has its column. `resultsTablePreferences`
 * orders the columns (ids it lists first, in its order; the others after, in the flow's order)
 * and says which are hidden and how wide they are.
 */

interface InputBlock {
  id: string
  groupId: string
  groupTitle: string
  type: string
  variableId: string | undefined
}

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined)

/** The columns of `flow`'s results, reading its published versions' blocks and variables. */
export async function resultColumns(store: Pick<Store, 'publishedFlows'>, flow: FlowRecord): Promise<ResultColumn[]> {
  return columnsOf(flow.content, await store.publishedFlows.blocksAndVariablesOfVersions(flow.id, INPUT_TYPES))
}

export function columnsOf(content: Json, versions: readonly VersionColumnRow[]): ResultColumn[] {
  const inputTypes: ReadonlySet<string> = new Set(INPUT_TYPES)
  const names = new Map<string, string>()
  const inputs = new Map<string, InputBlock>()
  for (const variable of list(content.variables)) {
    const id = isObject(variable) ? text(variable.id) : undefined
    if (id !== undefined && !names.has(id)) names.set(id, text((variable as Json).name) ?? id)
  }
  for (const group of list(content.groups)) {
    if (!isObject(group)) continue
    for (const block of list(group.blocks)) {
      const id = isObject(block) ? text(block.id) : undefined
      if (id === undefined || inputs.has(id) || !inputTypes.has(String((block as Json).type))) continue
      const options = isObject((block as Json).options) ? ((block as Json).options as Json) : {}
      inputs.set(id, {
        id,
        groupId: text(group.id) ?? '',
        groupTitle: text(group.title) ?? '',
        type: String((block as Json).type),
        variableId: text(options.variableId),
      })
    }
  }
  for (const row of versions) {
    if (row.kind === 'variable' && !names.has(row.id)) names.set(row.id, row.title || row.id)
    if (row.kind === 'block' && !inputs.has(row.id)) {
      inputs.set(row.id, {
        id: row.id,
        groupId: row.group_id ?? '',
        groupTitle: row.title ?? '',
        type: row.type ?? '',
        variableId: row.variable_id ?? undefined,
      })
    }
  }

  const unique = uniqueNames()
  const columns: ResultColumn[] = []
  const savedTo = new Set<string>()
  for (const input of inputs.values()) {
    const variableName = input.variableId === undefined ? undefined : names.get(input.variableId)
    if (variableName !== undefined) savedTo.add(input.variableId!)
    columns.push({
      id: input.id,
      name: unique(variableName ?? (input.groupTitle || input.type)),
      kind: 'input',
      blockId: input.id,
      groupId: input.groupId,
      blockType: input.type,
      ...(variableName !== undefined ? { variableId: input.variableId } : {}),
      hidden: false,
    })
  }
  const blockIds = new Set(inputs.keys())
  for (const [id, name] of names) {
    if (savedTo.has(id)) continue
    // A variable's id is its column's id, unless (by a freak of the editor) a block has the same.
    columns.push({ id: blockIds.has(id) ? `variable:${id}` : id, name: unique(name), kind: 'variable', variableId: id, hidden: false })
  }
  return withPreferences(columns, content.resultsTablePreferences)
}

/** Names as given, a repeated one suffixed " (2)", " (3)"… */
function uniqueNames(): (name: string) => string {
  const used = new Set<string>()
  return (name) => {
    let unique = name
    for (let n = 2; used.has(unique); n++) unique = `${name} (${n})`
    used.add(unique)
    return unique
  }
}

function withPreferences(columns: ResultColumn[], preferences: unknown): ResultColumn[] {
  if (!isObject(preferences)) return columns
  const order = new Map(list(preferences.columnsOrder).map((id, index) => [String(id), index]))
  const visibility = isObject(preferences.columnsVisibility) ? preferences.columnsVisibility : {}
  const widths = isObject(preferences.columnsWidth) ? preferences.columnsWidth : {}
  const rank = (column: ResultColumn, index: number) => order.get(column.id) ?? order.size + index
  return columns
    .map((column, index) => ({ column, rank: rank(column, index) }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ column }) => {
      const width = widths[column.id]
      return {
        ...column,
        hidden: visibility[column.id] === false,
        ...(typeof width === 'number' && Number.isFinite(width) && width > 0 && width <= 10_000 ? { width } : {}),
      }
    })
}

/** A result as a table row: the latest answer of each input column, the value of each variable column. */
export function toResultRow(
  columns: readonly ResultColumn[],
  result: ResultRecord,
  answers: ReadonlyMap<string, string> | undefined,
): ResultRow {
  const cells: Record<string, VariableValue> = {}
  for (const column of columns) {
    const value = column.kind === 'input' ? answers?.get(column.blockId!) : result.variables[column.variableId!]
    if (value !== undefined && value !== null) cells[column.id] = value
  }
  return {
    id: result.id,
    createdAt: result.createdAt,
    updatedAt: result.updatedAt,
    isCompleted: result.isCompleted,
    version: result.version,
    userId: result.userId,
    cells,
  }
}

/** A cell as text (CSV): a list joined with ", ", as choice inputs join several answers. */
export function cellText(value: VariableValue | undefined): string {
  if (value === undefined || value === null) return ''
  return Array.isArray(value) ? value.join(', ') : String(value)
}
