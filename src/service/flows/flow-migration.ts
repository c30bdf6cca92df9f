/**
 * Older flow exports (no `version`, "3", "4", "5") become schema version 6 before anything else
 * reads them (integrations.md 6.1): the legacy `start` block becomes a start event, the edge
 * leaving it starts from that event, and shapes the schema would refuse are repaired or dropped.
 * Pure data in, data out; newer versions pass through untouched.
 */

type Json = Record<string, unknown>

/** Versions this module converts; a missing version is the oldest one. */
const LEGACY_VERSIONS = new Set(['3', '4', '5'])
export const MIGRATED_VERSION = '6'

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

export function isLegacyVersion(version: unknown): boolean {
  return version === undefined || version === null || (typeof version === 'string' && LEGACY_VERSIONS.has(version))
}

/**
 * The flow as version 6. Anything that is not an object is returned as is, for the schema to
 * refuse with a readable path.
 */
export function migrateToV6<T>(flow: T): T {
  if (!isObject(flow) || !isLegacyVersion(flow.version)) return flow
  // Every export of every version has its groups: an object without them is not a flow, left for
  // the schema to refuse with its path (so is a list of the wrong type). Missing edges are none.
  if (!Array.isArray(flow.groups) || !isListOrMissing(flow.edges)) return flow
  const groups = flow.groups.map(withBlockList)
  const edges = (flow.edges ?? []).filter(isWellFormedEdge)
  const start = findStartBlock(groups)
  const events: unknown[] = Array.isArray(flow.events) ? [...flow.events] : []
  let migratedEdges = edges
  if (start && !events.some((event) => isObject(event) && event.type === 'start')) {
    const eventId = String(start.group.id)
    const outgoingEdgeId = typeof start.block.outgoingEdgeId === 'string' ? start.block.outgoingEdgeId : undefined
    events.unshift({
      id: eventId,
      type: 'start',
      ...(isObject(start.group.graphCoordinates) ? { graphCoordinates: start.group.graphCoordinates } : {}),
      ...(outgoingEdgeId ? { outgoingEdgeId } : {}),
    })
    migratedEdges = edges.map((edge) => (edge.id === outgoingEdgeId ? { ...edge, from: { eventId } } : edge))
  }
  return {
    ...flow,
    version: MIGRATED_VERSION,
    events,
    groups: groups.flatMap(withoutStartBlocks),
    edges: migratedEdges,
  } as T
}

function isListOrMissing(value: unknown): value is unknown[] | undefined | null {
  return value === undefined || value === null || Array.isArray(value)
}

/** Old exports may omit a group's block list; block ids and types stay for the schema to check. */
function withBlockList(group: unknown): unknown {
  if (!isObject(group)) return group
  const blocks = Array.isArray(group.blocks) ? group.blocks.map(withLegacyDefaults) : []
  return { ...group, blocks }
}

/** Before version 6, a linked flow shared its caller's result unless told otherwise. */
function withLegacyDefaults(block: unknown): unknown {
  if (!isObject(block) || block.type !== 'Typebot link') return block
  const options = isObject(block.options) ? block.options : {}
  if (typeof options.mergeResults === 'boolean') return block
  return { ...block, options: { ...options, mergeResults: true } }
}

/** An edge needs an id, a `from` object and a target group; anything less leads nowhere. */
function isWellFormedEdge(edge: unknown): edge is Json {
  return isObject(edge) && typeof edge.id === 'string' && isObject(edge.from) && isObject(edge.to) && typeof edge.to.groupId === 'string'
}

function findStartBlock(groups: unknown[]): { group: Json; block: Json } | undefined {
  for (const group of groups) {
    if (!isObject(group) || typeof group.id !== 'string' || !Array.isArray(group.blocks)) continue
    const block = group.blocks.find((candidate) => isObject(candidate) && candidate.type === 'start')
    if (isObject(block)) return { group, block }
  }
  return undefined
}

/** Start blocks never run; a group that held only one disappears with it. */
function withoutStartBlocks(group: unknown): unknown[] {
  if (!isObject(group) || !Array.isArray(group.blocks)) return [group]
  const blocks = group.blocks.filter((block) => !(isObject(block) && block.type === 'start'))
  if (blocks.length === 0 && group.blocks.length > 0) return []
  return [{ ...group, blocks }]
}

/** An import request body (`{workspaceId, flow}`) with its flow migrated, ready for the schema. */
export function migrateImportBody(body: unknown): unknown {
  return isObject(body) && 'flow' in body ? { ...body, flow: migrateToV6(body.flow) } : body
}
