import { randomUUID } from 'node:crypto'
import { DEFAULT_HANDOFF_TIMEOUT_SECONDS } from '../../../../protocol/handoff'
import { type Continuation, follow } from '../../core/continuation'
import { asFields, readArray, readString, toFiniteNumber } from '../../core/field-readers'
import type { BlockLocation } from '../../core/flow-index'
import type { Step } from '../../core/step'
import type { HandoffResume } from '../../core/types'
import { buildBubbleMessage } from '../bubbles/bubbles'
import { isOpen, readOpeningHours } from './opening-hours'

/**
 * `handoff` (our own block): the conversation waits for a person of the owner's team. The step
 * ends with the session awaiting the handoff (its id, its deadline, the variables the person may
 * see) and a `handoff` client action telling the widget to follow it; the service records the
 * handoff in the step's own write and brings the session back (`resumeHandoff`) when the person
 * ends it, no one answered in time or the visitor left. Outside the block's opening hours no one
 * is asked: the walk takes the "no one answered" exit in this very step.
 */

const MAX_TIMEOUT_SECONDS = 86_400

export function runHandoff(location: BlockLocation, step: Step): Continuation {
  const { block } = location
  const options = asFields(block.options)
  const now = step.context.now()
  const hours = readOpeningHours(options.openingHours)
  if (hours && !openAt(step, block.id, hours, now)) {
    step.log('info', 'Outside the opening hours: no one was asked to answer', { blockId: block.id, timeZone: hours.timeZone })
    return follow(noAnswerEdge(location))
  }
  const waitingMessage = readString(options, 'waitingMessage')
  if (waitingMessage !== undefined) {
    const message = buildBubbleMessage({ id: block.id, type: 'text', content: { plainText: waitingMessage } }, step.substitute)
    if (message) step.addMessage(message)
  }
  const handoffId = randomUUID()
  const timeout = toFiniteNumber(options.timeoutSeconds)
  const seconds =
    timeout === undefined || timeout < 1 ? DEFAULT_HANDOFF_TIMEOUT_SECONDS : Math.min(Math.round(timeout), MAX_TIMEOUT_SECONDS)
  const variables = readArray(options, 'variableIds').flatMap((id) => {
    const variable = typeof id === 'string' ? step.index.variablesById.get(id) : undefined
    return variable ? [{ id: variable.id, name: variable.name }] : []
  })
  step.addAction({ type: 'handoff', handoff: { handoffId }, expectsDedicatedReply: true })
  return {
    kind: 'wait',
    awaiting: {
      kind: 'handoff',
      groupId: location.group.id,
      blockId: block.id,
      handoffId,
      deadline: new Date(now.getTime() + seconds * 1000).toISOString(),
      variables,
    },
  }
}

/**
 * The conversation came back to the flow: variables the person set (by name, only those the
 * block shows) are applied, and the walk leaves by the block's edge when the person ended it,
 * else by the "no one answered" exit. Returns the edge to leave by.
 */
export function acceptHandoff(
  step: Step,
  location: BlockLocation,
  resume: HandoffResume,
  shown: readonly { id: string; name: string }[],
): string | undefined {
  for (const [name, value] of Object.entries(resume.variables ?? {})) {
    const variable = shown.find((candidate) => candidate.name === name)
    if (variable && step.index.variablesById.has(variable.id)) step.variables[variable.id] = value
  }
  const how = {
    ended: 'The person ended the conversation',
    unanswered: 'No one answered in time',
    left: 'The visitor left the conversation',
  }
  step.log('info', how[resume.outcome], { blockId: location.block.id })
  return resume.outcome === 'ended' ? (location.block.outgoingEdgeId ?? undefined) : noAnswerEdge(location)
}

/** The first item's edge; without one, the block's own (the flow goes on as if the person had ended). */
function noAnswerEdge(location: BlockLocation): string | undefined {
  return location.block.items?.[0]?.outgoingEdgeId ?? location.block.outgoingEdgeId ?? undefined
}

function openAt(step: Step, blockId: string, hours: NonNullable<ReturnType<typeof readOpeningHours>>, now: Date): boolean {
  try {
    return isOpen(hours, now)
  } catch {
    step.log('warning', `Unknown time zone "${hours.timeZone}": the opening hours are ignored`, { blockId })
    return true
  }
}
