import { isPrefilledValue, type PrefilledVariables, type StartChatRequest } from '../../../protocol/chat'
import { type Emit, widgetWarning } from '../events/events'

export type { PrefilledVariables }

/**
 * Keeps the entries the contract accepts (string, finite number, boolean); the page may have set
 * anything on the property, and one bad value must not make the service refuse the whole start.
 */
export function cleanVariables(input: unknown): { variables: PrefilledVariables | undefined; dropped: string[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { variables: undefined, dropped: input == null ? [] : ['(not an object)'] }
  }
  const variables: PrefilledVariables = {}
  const dropped: string[] = []
  for (const [name, value] of Object.entries(input)) {
    if (isPrefilledValue(value)) variables[name] = value
    else dropped.push(name)
  }
  return { variables: Object.keys(variables).length > 0 ? variables : undefined, dropped }
}

/**
 * The startChat body: the usable prefilled variables (dropped ones logged), a result to resume,
 * `isStreamEnabled` (this widget shows AI answers as they stream), and `startOver` when the
 * visitor chose to.
 */
export function startRequest(
  prefilled: unknown,
  resultId: string | undefined,
  emit: Emit,
  user?: { userId: string; userHash: string },
  startOver?: boolean,
): StartChatRequest {
  const { variables, dropped } = cleanVariables(prefilled)
  if (dropped.length > 0) {
    emit(
      'flowchat:log',
      widgetWarning('invalid-variables', 'Some prefilled variables were not strings, numbers or booleans and were left out', { dropped }),
    )
  }
  const request: StartChatRequest = { isStreamEnabled: true }
  if (startOver) request.startOver = true
  if (variables) request.prefilledVariables = variables
  if (resultId) request.resultId = resultId
  // Either one alone is sent too: the service's refusal (a log of the step) tells the site owner why.
  if (user?.userId || user?.userHash) request.user = { id: user.userId, hash: user.userHash }
  return request
}
