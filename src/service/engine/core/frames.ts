import type { PublishedFlow } from '../../../protocol/index'
import { indexFlow, type Position } from './flow-index'
import type { Frame, Step } from './step'
import type { LinkedResult, LinkFrame } from './types'
import { variableMap } from './variables'

/**
 * The stack of flows a walk is in: the session's own, then each linked flow entered (by a
 * `Typebot link` block, engine/blocks/logic/linked-flows.ts) and not yet left. The walk goes back
 * into the caller when a linked flow's path ends; the session keeps the stack between requests.
 */

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
