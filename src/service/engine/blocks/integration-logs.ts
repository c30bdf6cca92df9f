import type { Block } from '../../../protocol/index'
import type { LogStatus, Step } from '../core/step'

/** Longest a stored log's details may be, as JSON text (answers of remote servers can be large). */
export const MAX_LOG_DETAILS_LENGTH = 10_000

/**
 * What an integration (an HTTP request, an e-mail) did. The whole story, with what was sent and
 * answered, is *sensitive*: stored with the result, never sent to the widget (it may hold
 * addresses, keys in URLs, answers of private APIs). A failure also gets a short public entry
 * naming the block, so the host page learns that something did not happen.
 */
export function logIntegration(
  step: Step,
  block: Pick<Block, 'id' | 'type'>,
  entry: { status: LogStatus; description: string; details: Record<string, unknown>; publicDescription?: string },
): void {
  step.log(entry.status, entry.description, { blockId: block.id, ...clipDetails(entry.details) }, { sensitive: true })
  if (entry.publicDescription) step.skip(block, entry.status, entry.publicDescription)
}

function clipDetails(details: Record<string, unknown>): Record<string, unknown> {
  const text = JSON.stringify(details) ?? ''
  if (text.length <= MAX_LOG_DETAILS_LENGTH) return details
  const clipped: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(details)) {
    const json = JSON.stringify(value) ?? ''
    clipped[key] =
      json.length > MAX_LOG_DETAILS_LENGTH / 4 ? `${json.slice(0, MAX_LOG_DETAILS_LENGTH / 4)}… (${json.length} characters)` : value
  }
  return clipped
}
