import type { Block, Edge, Group, PublishedFlow, Variable } from '../../../protocol/index'

/** Where the walk stands: a block of a group, by position (blocks have no other order). */
export interface Position {
  groupId: string
  blockIndex: number
}

export interface BlockLocation {
  group: Group
  index: number
  block: Block
}

/** Lookup tables over one published flow, built once and shared by every session on it. */
export interface FlowIndex {
  readonly flow: PublishedFlow
  readonly groups: ReadonlyMap<string, Group>
  readonly blocks: ReadonlyMap<string, BlockLocation>
  readonly edges: ReadonlyMap<string, Edge>
  readonly variablesById: ReadonlyMap<string, Variable>
  readonly variablesByName: ReadonlyMap<string, Variable>
  readonly startEdgeId: string | undefined
  readonly progressEnabled: boolean
  /** Groups by title (first of each title), for links and jumps that name a group by title. */
  readonly groupsByTitle: ReadonlyMap<string, Group>
  /** A `Transcript` Set variable needs the session to keep what was said. */
  readonly usesTranscript: boolean
  /** Longest remaining path (in blocks) from each block, filled on first use by progress.ts. */
  longestPaths?: ReadonlyMap<string, number>
}

const byObject = new WeakMap<PublishedFlow, FlowIndex>()
/**
 * The service usually parses the stored snapshot anew on every request, so a WeakMap on the
 * object alone would rarely hit. A published snapshot never changes once written: its id and
 * `updatedAt` identify it (the shape counts guard against hand-made flows reusing ids in tests).
 */
const byVersion = new Map<string, FlowIndex>()
const MAX_CACHED_VERSIONS = 200

export function indexFlow(flow: PublishedFlow): FlowIndex {
  const cached = byObject.get(flow)
  if (cached) return cached
  const key = versionKey(flow)
  const shared = byVersion.get(key)
  if (shared) {
    byObject.set(flow, shared)
    return shared
  }
  const index = buildIndex(flow)
  byObject.set(flow, index)
  if (byVersion.size >= MAX_CACHED_VERSIONS) {
    const oldest = byVersion.keys().next().value
    if (oldest !== undefined) byVersion.delete(oldest)
  }
  byVersion.set(key, index)
  return index
}

function versionKey(flow: PublishedFlow): string {
  let blockCount = 0
  for (const group of flow.groups) blockCount += group.blocks.length
  const shape = `${flow.groups.length}/${blockCount}/${flow.edges.length}/${flow.variables?.length ?? 0}`
  return JSON.stringify([flow.id, flow.updatedAt, shape])
}

function buildIndex(flow: PublishedFlow): FlowIndex {
  const groups = new Map<string, Group>()
  const blocks = new Map<string, BlockLocation>()
  for (const group of flow.groups) {
    if (groups.has(group.id)) continue
    groups.set(group.id, group)
    group.blocks.forEach((block, index) => {
      if (!blocks.has(block.id)) blocks.set(block.id, { group, index, block })
    })
  }
  const groupsByTitle = new Map<string, Group>()
  for (const group of groups.values()) {
    const title = group.title?.trim()
    if (title && !groupsByTitle.has(title)) groupsByTitle.set(title, group)
  }
  const usesTranscript = flow.groups.some((group) =>
    group.blocks.some((block) => block.type === 'Set variable' && (block.options as { type?: unknown } | null)?.type === 'Transcript'),
  )
  const edges = new Map<string, Edge>()
  for (const edge of flow.edges) if (!edges.has(edge.id)) edges.set(edge.id, edge)
  const variablesById = new Map<string, Variable>()
  const variablesByName = new Map<string, Variable>()
  for (const variable of flow.variables ?? []) {
    if (!variablesById.has(variable.id)) variablesById.set(variable.id, variable)
    const name = variable.name.trim()
    if (!variablesByName.has(name)) variablesByName.set(name, variable)
  }
  const start = flow.events.find((event) => event.type === 'start')
  return {
    flow,
    groups,
    blocks,
    edges,
    variablesById,
    variablesByName,
    startEdgeId: start?.outgoingEdgeId ?? undefined,
    progressEnabled: flow.theme?.general?.progressBar?.isEnabled === true,
    groupsByTitle,
    usesTranscript,
  }
}

/** Where an edge leads: the named block of its group, else the group's first block. */
export function edgeTarget(index: FlowIndex, edgeId: string): Position | undefined {
  const edge = index.edges.get(edgeId)
  if (!edge) return undefined
  return groupTarget(index, edge.to.groupId, edge.to.blockId ?? undefined)
}

export function groupTarget(index: FlowIndex, groupId: string, blockId?: string): Position | undefined {
  const group = index.groups.get(groupId)
  if (!group) return undefined
  const located = blockId ? index.blocks.get(blockId) : undefined
  const blockIndex = located && located.group.id === groupId ? located.index : 0
  return { groupId, blockIndex }
}

/** Where the flow begins: the target of its start event's edge. */
export function startPosition(index: FlowIndex): Position | undefined {
  return index.startEdgeId ? edgeTarget(index, index.startEdgeId) : undefined
}

/** The block right after a block: the next one in its group, else the one behind its edge. */
export function nextBlockId(index: FlowIndex, location: BlockLocation): string | undefined {
  const next = location.group.blocks[location.index + 1]
  if (next) return next.id
  const target = location.block.outgoingEdgeId ? edgeTarget(index, location.block.outgoingEdgeId) : undefined
  return target ? index.groups.get(target.groupId)?.blocks[target.blockIndex]?.id : undefined
}
