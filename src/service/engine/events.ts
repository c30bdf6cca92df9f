import type { FlowEvent } from '../../protocol/index'
import { EngineError } from './core/engine-error'
import { asFields, readBoolean, readString } from './core/field-readers'
import { type BlockLocation, edgeTarget, type FlowIndex, type Position } from './core/flow-index'
import type { Step } from './core/step'
import type { Awaiting } from './core/types'

/**
 * Events other than `start` (integrations.md 6.2): a `command` the host page sends, and `reply` /
 * `invalidReply`, which run a detour whenever the visitor answers an input. Each walks from its
 * edge; a `Return` in that detour brings the visitor back (see detours.ts).
 */

/** Where an event leads, if it leads anywhere. */
function eventTarget(index: FlowIndex, event: FlowEvent): Position | undefined {
  return event.outgoingEdgeId ? edgeTarget(index, event.outgoingEdgeId) : undefined
}

/**
 * Prepares a command: the start of its event's path. With `resumeAfter` the session comes back to
 * what it was waiting on once that path ends; otherwise a `Return` on the path does.
 * Throws an `EngineError` `unknown_command` (nothing changed) when no event of the active flow handles it.
 */
export function startCommand(step: Step, awaiting: Awaiting, command: string): Position {
  const event = step.index.flow.events.find(
    (candidate) => candidate.type === 'command' && readString(asFields(candidate.options), 'command') === command,
  )
  const target = event && eventTarget(step.index, event)
  if (!event || !target) throw new EngineError('unknown_command', `This flow has no command event named "${command}"`)
  const waitingOn = step.index.blocks.get(awaiting.blockId)
  if (readBoolean(asFields(event.options), 'resumeAfter') === true) {
    if (waitingOn) step.frame.queue.unshift({ groupId: waitingOn.group.id, blockIndex: waitingOn.index })
  } else {
    step.returnMark = { status: 'pending', blockId: awaiting.blockId }
  }
  return target
}

/** What a reply event reports about the input that was answered. */
const INPUT_KINDS: Record<string, string> = {
  'text input': 'text',
  'number input': 'number',
  'email input': 'email',
  'url input': 'url',
  'date input': 'date',
  'time input': 'time',
  'phone number input': 'phone',
  'choice input': 'buttons',
  'picture choice input': 'picture choice',
  'payment input': 'payment',
  'rating input': 'rating',
  'file input': 'file',
  cards: 'cards',
}

/**
 * The reply detour for an answer, when the flow has one: `invalidReply` for an invalid answer (or
 * `reply` when there is no such event), `reply` for a valid one. It sets the event's variables and
 * returns where to walk; a valid answer is replayed to the input after a `Return`.
 */
export function startReplyEvent(step: Step, input: BlockLocation, text: string, valid: boolean): Position | undefined {
  const events = step.index.flow.events.filter((event) => event.outgoingEdgeId)
  const invalidEvent = valid ? undefined : events.find((event) => event.type === 'invalidReply')
  const event = invalidEvent ?? events.find((event) => event.type === 'reply')
  const target = event && eventTarget(step.index, event)
  if (!event || !target) return undefined
  const options = asFields(event.options)
  const set = (key: string, value: string) => {
    const variableId = readString(options, key)
    if (variableId && step.index.variablesById.has(variableId)) step.variables[variableId] = value
  }
  set('contentVariableId', text)
  set('inputTypeVariableId', INPUT_KINDS[input.block.type] ?? input.block.type)
  set('inputNameVariableId', input.group.title ?? '')
  step.returnMark = invalidEvent
    ? { status: 'pending', blockId: input.block.id }
    : { status: 'pending', blockId: input.block.id, autoResumeMessage: text }
  return target
}
