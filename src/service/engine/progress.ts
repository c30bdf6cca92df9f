import { asFields, readString } from './core/field-readers'
import { type BlockLocation, edgeTarget, type FlowIndex, groupTarget, type Position } from './core/flow-index'

/**
 * `progress` = blocks visited / (visited + the longest path still ahead), 100 at the end.
 * The longest path from every block is computed once per published flow and kept on its index.
 */
export function estimateProgress(
  index: FlowIndex,
  visitedBlockCount: number,
  stoppedAtBlockId: string | undefined,
  ended: boolean,
): number {
  if (ended) return 100
  const table = longestPaths(index)
  // The block the walk stopped at is already counted as visited.
  const ahead = stoppedAtBlockId === undefined ? 0 : Math.max(0, (table.get(stoppedAtBlockId) ?? 1) - 1)
  const total = visitedBlockCount + ahead
  if (total <= 0) return 0
  return Math.min(99, Math.round((visitedBlockCount / total) * 100))
}

export function longestPaths(index: FlowIndex): ReadonlyMap<string, number> {
  index.longestPaths ??= computeLongestPaths(index)
  return index.longestPaths
}

/**
 * Longest path in blocks from each block to an end, counting the block itself. Loops are cut
 * where they close (an edge back to a block still being explored counts for nothing), and the
 * traversal keeps its own stack so a very long flow cannot overflow the call stack.
 */
function computeLongestPaths(index: FlowIndex): Map<string, number> {
  const longest = new Map<string, number>()
  const onStack = new Set<string>()
  for (const startId of index.blocks.keys()) {
    if (longest.has(startId)) continue
    const stack = [{ id: startId, next: successors(index, startId), cursor: 0 }]
    onStack.add(startId)
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!
      if (frame.cursor < frame.next.length) {
        const child = frame.next[frame.cursor++]!
        if (!longest.has(child) && !onStack.has(child)) {
          onStack.add(child)
          stack.push({ id: child, next: successors(index, child), cursor: 0 })
        }
        continue
      }
      let best = 0
      for (const child of frame.next) best = Math.max(best, longest.get(child) ?? 0)
      longest.set(frame.id, 1 + best)
      onStack.delete(frame.id)
      stack.pop()
    }
  }
  return longest
}

function successors(index: FlowIndex, blockId: string): string[] {
  const location = index.blocks.get(blockId)
  if (!location) return []
  const targets: (Position | undefined)[] = []
  const { block } = location
  const edgeIds = [block.outgoingEdgeId, ...(block.items ?? []).map((item) => item.outgoingEdgeId)]
  for (const edgeId of edgeIds) if (edgeId) targets.push(edgeTarget(index, edgeId))
  if (block.type === 'Jump') {
    const options = asFields(block.options)
    const groupId = readString(options, 'groupId')
    if (groupId) targets.push(groupTarget(index, groupId, readString(options, 'blockId')))
  }
  if (!block.outgoingEdgeId && block.type !== 'Jump') targets.push(nextInGroup(location))
  const ids = new Set<string>()
  for (const target of targets) {
    const id = target && index.groups.get(target.groupId)?.blocks[target.blockIndex]?.id
    if (id) ids.add(id)
  }
  return [...ids]
}

function nextInGroup(location: BlockLocation): Position | undefined {
  const nextIndex = location.index + 1
  return nextIndex < location.group.blocks.length ? { groupId: location.group.id, blockIndex: nextIndex } : undefined
}
