import type { Group } from '../../../../protocol/index'
import { type Continuation, follow } from '../../core/continuation'
import { asFields, readString } from '../../core/field-readers'
import { type BlockLocation, type FlowIndex, groupTarget, nextBlockId } from '../../core/flow-index'
import type { Step } from '../../core/step'
import { formatValue, singleVariableName, valueByName } from '../../core/variables'

/**
 * A group of `target` named by id, or by title through a single `{{Var}}` whose value (read in
 * the flow running the block) is the title: links and jumps the flow computes.
 */
export function findGroup(target: FlowIndex, ref: string, step: Step): Group | undefined {
  const named = singleVariableName(ref)
  if (named === undefined) return target.groups.get(ref)
  return target.groupsByTitle.get(formatValue(valueByName(step.index, step.variables, named)).trim())
}

/**
 * `Jump`: continue at the target group (or a block in it). The block after the Jump is where a
 * later `Return` comes back to.
 */
export function runJump(location: BlockLocation, step: Step): Continuation {
  const options = asFields(location.block.options)
  const groupRef = readString(options, 'groupId')
  const group = groupRef ? findGroup(step.index, groupRef, step) : undefined
  const target = group ? groupTarget(step.index, group.id, readString(options, 'blockId')) : undefined
  if (!target) {
    step.skip(location.block, 'warning', 'Jump skipped: its target group does not exist')
    return follow(location.block.outgoingEdgeId)
  }
  const comeBackTo = nextBlockId(step.index, location)
  if (comeBackTo) step.returnMark = { status: 'pending', blockId: comeBackTo }
  return { kind: 'jump', position: target }
}

/**
 * `Return`: back to where the last detour (a Jump, a command or reply event) started. Without
 * one it does nothing. A reply event's mark stays, marked called, until its answer is replayed.
 */
export function runReturn(location: BlockLocation, step: Step): Continuation {
  const mark = step.returnMark
  if (!mark) return follow(location.block.outgoingEdgeId)
  const target = step.index.blocks.get(mark.blockId)
  if (!target) {
    step.returnMark = undefined
    step.log('error', 'Could not find block to return to', { blockId: location.block.id, returnTo: mark.blockId })
    return { kind: 'end' }
  }
  step.returnMark = mark.autoResumeMessage === undefined ? undefined : { ...mark, status: 'called' }
  return { kind: 'jump', position: { groupId: target.group.id, blockIndex: target.index } }
}
