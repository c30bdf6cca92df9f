import {
  type AnalyticsFormat,
  addDays,
  analyticsQuerySchema,
  type BlockFigures,
  DEFAULT_ANALYTICS_DAYS,
  type FlowAnalytics,
  type GroupFigures,
  MAX_ANALYTICS_DAYS,
} from '../../protocol/analytics'
import { INPUT_TYPES } from '../../protocol/chat'
import { readableIssues } from '../../protocol/issues'
import { HttpError } from '../http/errors'
import type { AnalyticsScope, AnsweredFigures } from '../store/analytics-repository'
import type { FlowRecord } from '../store/flows-repository'
import type { Repositories } from '../store/store'

/**
 * Where a flow's visitors drop off (docs/decisions/2026-11-28-drop-off-from-answers.md): the
 * database counts, this lays the counts out on the flow's groups and input blocks in the order
 * of the version shown, so a funnel reads top to bottom as the flow does.
 */

export interface AnalyticsRequest {
  format: AnalyticsFormat
  version: number | null
  /** First and last day, UTC, both included. */
  from: string
  to: string
}

/** The query, read with the contract's schema: each parameter at most once, nothing unknown, a bounded range. */
export function readAnalyticsQuery(query: Record<string, string[]>, today: Date): AnalyticsRequest {
  const twice = Object.entries(query).filter(([, values]) => values.length > 1)
  if (twice.length > 0) throw invalidQuery(twice.map(([name]) => ({ path: name.slice(0, 100), message: 'Give this parameter once' })))
  const parsed = analyticsQuerySchema.safeParse(Object.fromEntries(Object.entries(query).map(([name, values]) => [name, values[0]])))
  if (!parsed.success) throw invalidQuery(readableIssues(parsed.error))
  const to = parsed.data.to ?? today.toISOString().slice(0, 10)
  const from = parsed.data.from ?? addDays(to, 1 - DEFAULT_ANALYTICS_DAYS)
  if (from > to) throw invalidQuery([{ path: 'to', message: 'Must be the same day as from or later' }])
  if (addDays(from, MAX_ANALYTICS_DAYS - 1) < to) {
    throw invalidQuery([{ path: 'to', message: `At most ${MAX_ANALYTICS_DAYS} days from from to to` }])
  }
  return { format: parsed.data.format ?? 'json', version: parsed.data.version === undefined ? null : Number(parsed.data.version), from, to }
}

export async function flowAnalytics(
  repos: Pick<Repositories, 'analytics' | 'publishedFlows'>,
  flow: FlowRecord,
  request: Omit<AnalyticsRequest, 'format'>,
): Promise<FlowAnalytics> {
  const scope: AnalyticsScope = {
    flowId: flow.id,
    from: `${request.from}T00:00:00.000Z`,
    to: `${addDays(request.to, 1)}T00:00:00.000Z`,
    version: request.version,
  }
  const [totals, figures, layout] = await Promise.all([
    repos.analytics.totals(scope),
    repos.analytics.answeredFigures(scope),
    layoutOf(repos, flow, request.version),
  ])
  return {
    flowId: flow.id,
    version: request.version,
    from: request.from,
    to: request.to,
    started: totals.started,
    completed: totals.completed,
    completionRate: totals.started === 0 ? null : totals.completed / totals.started,
    medianSecondsToComplete: totals.medianSecondsToComplete,
    stoppedBeforeAnswering: figures.find((row) => row.groupId === null)?.stoppedAfter ?? 0,
    groups: groupFigures(layout, figures),
  }
}

interface LayoutGroup {
  id: string
  title: string | null
  blocks: { id: string; type: string | null }[]
}

const INPUTS: ReadonlySet<string> = new Set(INPUT_TYPES)

/** The groups and input blocks of the version asked for (else the live one, else the draft), in order. */
async function layoutOf(repos: Pick<Repositories, 'publishedFlows'>, flow: FlowRecord, version: number | null): Promise<LayoutGroup[]> {
  const published =
    (version === null ? undefined : await repos.publishedFlows.findByNumber(flow.id, version)) ??
    (await repos.publishedFlows.findCurrent(flow.id))
  const groups = (published?.snapshot.groups ?? flow.content.groups ?? []) as {
    id?: unknown
    title?: unknown
    blocks?: { id?: unknown; type?: unknown }[]
  }[]
  return groups
    .filter((group) => typeof group.id === 'string')
    .map((group) => ({
      id: group.id as string,
      title: typeof group.title === 'string' ? group.title : null,
      blocks: (Array.isArray(group.blocks) ? group.blocks : [])
        .filter((block) => typeof block.id === 'string' && typeof block.type === 'string' && INPUTS.has(block.type))
        .map((block) => ({ id: block.id as string, type: block.type as string })),
    }))
}

/** The layout's groups and blocks with their figures; groups and blocks only in the figures (other versions) after them. */
function groupFigures(layout: LayoutGroup[], figures: AnsweredFigures[]): GroupFigures[] {
  type Counted = { group?: AnsweredFigures; blocks: Map<string, AnsweredFigures> }
  const byGroup = new Map<string, Counted>()
  for (const row of figures) {
    if (row.groupId === null) continue
    const entry: Counted = byGroup.get(row.groupId) ?? { blocks: new Map() }
    if (row.blockId === null) entry.group = row
    else entry.blocks.set(row.blockId, row)
    byGroup.set(row.groupId, entry)
  }
  const known = new Set(layout.map((group) => group.id))
  const others: LayoutGroup[] = [...byGroup.keys()].filter((id) => !known.has(id)).map((id) => ({ id, title: null, blocks: [] }))
  return [...layout, ...others].map((group) => {
    const counted = byGroup.get(group.id)
    const listed = new Set(group.blocks.map((block) => block.id))
    const extra = [...(counted?.blocks.keys() ?? [])].filter((id) => !listed.has(id)).map((id) => ({ id, type: null }))
    const blocks: BlockFigures[] = [...group.blocks, ...extra].map((block) => ({
      id: block.id,
      type: block.type,
      reached: counted?.blocks.get(block.id)?.reached ?? 0,
      stoppedAfter: counted?.blocks.get(block.id)?.stoppedAfter ?? 0,
    }))
    return {
      id: group.id,
      title: group.title,
      reached: counted?.group?.reached ?? 0,
      stoppedAfter: blocks.reduce((sum, block) => sum + block.stoppedAfter, 0),
      blocks,
    }
  })
}

function invalidQuery(details: { path: string; message: string }[]): HttpError {
  const first = details[0]
  const where = first?.path ? `Query parameter ${first.path}` : 'The query'
  return new HttpError('invalid_query', `${where}: ${first?.message ?? 'not valid'}.`, details)
}
