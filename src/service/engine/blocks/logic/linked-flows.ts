import type { PublishedFlow } from '../../../../protocol/index'
import { newId } from '../../../ids'
import { type Continuation, follow, leave } from '../../core/continuation'
import { asFields, readBoolean, readString } from '../../core/field-readers'
import { type BlockLocation, type FlowIndex, groupTarget, indexFlow, type Position, startPosition } from '../../core/flow-index'
import type { Step } from '../../core/step'
import { initialVariables, type Variables } from '../../core/variables'
import { findGroup } from './detours'

/**
 * `Typebot link`: the walk enters another published flow of the same workspace (or a copy of
 * the current one) and comes back after the link block when that flow's path ends
 * (integrations.md 2.2). Entered flows form a stack kept in the session; variables pass by name.
 */

/** Linked flows open at once; deeper links are skipped so a session's state stays small. */
export const MAX_LINK_DEPTH = 32

export async function runTypebotLink(location: BlockLocation, step: Step): Promise<Continuation> {
  const { block } = location
  const options = asFields(block.options)
  const next = follow(block.outgoingEdgeId)
  const ref = readString(options, 'typebotId')?.trim()
  if (!ref) {
    step.skip(block, 'error', 'Linked flow skipped: it names no flow')
    return next
  }
  const target = await loadTarget(ref, step)
  if (!target) {
    step.skip(block, 'error', `Linked flow skipped: no published flow "${ref}" in this workspace`, { flowId: ref })
    return next
  }
  const index = indexFlow(target.flow)
  const groupRef = readString(options, 'groupId')?.trim()
  const entry = groupRef ? entryGroup(index, groupRef, step) : startPosition(index)
  if (!entry) {
    step.skip(block, 'error', `Linked flow skipped: group "${groupRef ?? 'start'}" not found in it`, { flowId: target.flowId })
    return next
  }
  // A copy of the current flow always shares its result; another flow only when asked to.
  const merge = target.isCurrent || readBoolean(options, 'mergeResults') === true
  const resume = leave(location, block.outgoingEdgeId ?? undefined, step)
  // Nothing to come back to in the same flow: a plain jump, so "restart" loops do not pile up.
  if (target.isCurrent && !resume) return { kind: 'jump', position: entry }
  if (step.frames.length > MAX_LINK_DEPTH) {
    step.skip(block, 'error', `Linked flow skipped: more than ${MAX_LINK_DEPTH} linked flows are open`)
    return next
  }
  step.frames.push({
    index,
    variables: inheritedVariables(index, step),
    queue: [],
    link: {
      flowId: target.flowId,
      ...(target.versionId ? { versionId: target.versionId } : {}),
      merge,
      ...(merge ? {} : { resultId: newId() }),
      ...(resume ? { resume } : {}),
    },
  })
  return { kind: 'jump', position: entry }
}

interface Target {
  flowId: string
  versionId?: string
  flow: PublishedFlow
  isCurrent: boolean
}

async function loadTarget(ref: string, step: Step): Promise<Target | undefined> {
  const { frame } = step
  const currentFlowId = frame.link?.flowId ?? frame.index.flow.flowId
  if (ref === 'current' || ref === currentFlowId) {
    return { flowId: currentFlowId, versionId: frame.link?.versionId, flow: frame.index.flow, isCurrent: true }
  }
  const loaded = await step.context.flows?.current(ref)
  return loaded && { ...loaded, isCurrent: false }
}

function entryGroup(index: FlowIndex, ref: string, step: Step): Position | undefined {
  const group = findGroup(index, ref, step)
  return group && groupTarget(index, group.id)
}

/** The linked flow's defaults, overridden by name from the nearest flow on the stack that has one. */
function inheritedVariables(index: FlowIndex, step: Step): Variables {
  const variables = initialVariables(index)
  for (const variable of index.variablesById.values()) {
    for (let i = step.frames.length - 1; i >= 0; i--) {
      const frame = step.frames[i]!
      const id = frame.index.variablesByName.get(variable.name.trim())?.id
      if (id === undefined) continue
      const value = frame.variables[id]
      if (value !== undefined) variables[variable.id] = value
      break
    }
  }
  return variables
}
