import type { FlowIndex } from '../../core/flow-index'
import type { SnapshotAnswer } from '../../core/types'
import { formatValue, isSet, type Variables } from '../../core/variables'

/**
 * The body an HTTP request block sends when it has no body of its own (integrations.md 1.3):
 * `submittedAt`, each answer under its variable's name (or its group's title), then every
 * variable with a value by name, as text; a variable wins over an answer of the same key.
 */
export function answersSnapshot(
  index: FlowIndex,
  variables: Variables,
  answers: readonly SnapshotAnswer[],
  now: Date,
): Record<string, string> {
  const snapshot: Record<string, string> = Object.create(null) as Record<string, string>
  snapshot.submittedAt = now.toISOString()
  for (const answer of answers) {
    const key = (answer.variableId && index.variablesById.get(answer.variableId)?.name) || index.groups.get(answer.groupId)?.title
    if (key && answer.value !== '') snapshot[key] = answer.value
  }
  for (const variable of index.variablesById.values()) {
    const value = variables[variable.id]
    if (isSet(value)) snapshot[variable.name] = formatValue(value)
  }
  return { ...snapshot }
}

/** The snapshot of the step's result: answers stored before this step, then this step's own. */
export async function resultSnapshot(step: {
  index: FlowIndex
  variables: Variables
  answers: readonly (SnapshotAnswer & { resultId?: string })[]
  context: { resultAnswers?: () => Promise<SnapshotAnswer[]> }
  now(): Date
}): Promise<Record<string, string>> {
  const stored = (await step.context.resultAnswers?.()) ?? []
  const own = step.answers.filter((answer) => answer.resultId === undefined)
  return answersSnapshot(step.index, step.variables, [...stored, ...own], step.now())
}
