import { MAX_MESSAGE_LENGTH } from '../../protocol/chat'
import type { ScriptOutcome } from './types'

/**
 * The message a script's outcome sends when its action `expectsDedicatedReply` (contract.md): a
 * returned string as is, any other value as JSON, nothing (`undefined`, `null`) or a failure as the
 * empty string. A reply longer than the service accepts (MAX_MESSAGE_LENGTH) would be refused
 * and stall the conversation, so it too becomes the empty string.
 */
export function scriptReply(outcome: ScriptOutcome): string {
  if (!outcome.ok || outcome.value === undefined || outcome.value === null) return ''
  const reply = typeof outcome.value === 'string' ? outcome.value : (JSON.stringify(outcome.value) ?? '')
  return reply.length > MAX_MESSAGE_LENGTH ? '' : reply
}
