import type { PublishedFlow } from '../../../../protocol/index'
import { newId } from '../../../ids'
import { type Continuation, follow, leave } from '../../core/continuation'
import { findGroup } from './detours'
import { asFields, readBoolean, readString } from '../../core/field-readers'
import { type BlockLocation, type FlowIndex, groupTarget, indexFlow, type Position, startPosition } from '../../core/flow-index'
import type { Frame, Step } from '../../core/step'
import type { LinkedResult, LinkFrame } from '../../core/types'
import { initialVariables, type Variables, variableMap } from '../../core/variables'

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

/**
 * Where the walk goes when the active flow's path ends: a queued position of that flow, else back
 * into the caller after the link block (leaving the linked flow), else nowhere: the conversation
 * ends.
 */
export function afterPathEnd(step: Step): Position | undefined {
  for (;;) {
    const { frame } = step
    const queued = frame.queue.shift()
    if (queued) return queued
    if (step.frames.length === 1) return undefined
    step.frames.pop()
    returnToCaller(frame, step)
    if (frame.link?.resume) return frame.link.resume
  }
}

/** A merging flow hands its values back by name; another flow's result is complete. */
function returnToCaller(child: Frame, step: Step): void {
  if (!child.link?.merge) {
    step.leftFrames.push(child)
    return
  }
  const parent = step.frame
  for (const [id, value] of Object.entries(child.variables)) {
    const name = child.index.variablesById.get(id)?.name.trim()
    const parentId = name === undefined ? undefined : parent.index.variablesByName.get(name)?.id
    if (parentId !== undefined) parent.variables[parentId] = value
  }
}

/** The stack as the session keeps it (the root's variables and queue live beside it). */
export function savedLinks(step: Step): LinkFrame[] {
  return step.frames.slice(1).map((frame) => ({
    ...frame.link!,
    variables: frame.variables,
    ...(frame.queue.length > 0 ? { queue: frame.queue } : {}),
  }))
}

/** Rebuilds the stack from the session; false when a linked flow's version no longer exists. */
export async function restoreLinks(step: Step, links: readonly LinkFrame[], rootFlow: PublishedFlow): Promise<boolean> {
  for (const { variables, queue, ...link } of links) {
    const flow = link.versionId ? await step.context.flows?.version(link.versionId) : rootFlow
    if (!flow) return false
    step.frames.push({ index: indexFlow(flow), variables: variableMap(variables), queue: [...(queue ?? [])], link })
  }
  return true
}

/** Results of unmerged linked flows touched by this step; all complete once the conversation ends. */
export function linkedResults(step: Step, ended: boolean): LinkedResult[] {
  const results: LinkedResult[] = []
  const add = (frame: Frame, isCompleted: boolean) => {
    const link = frame.link
    if (link?.resultId) results.push({ id: link.resultId, flowId: link.flowId, variables: frame.variables, isCompleted })
  }
  for (const frame of step.leftFrames) add(frame, true)
  for (const frame of step.frames.slice(1)) add(frame, ended)
  return results
}
