import { importOverHttp, publishOverHttp } from './flows'
import type { TestService } from './service'

/** A visitor's conversation: starts the flow and gives `answers` in turn; returns the result's id. */
export async function collectResult(
  svc: TestService,
  flowRef: string,
  answers: readonly string[],
  prefilledVariables?: Record<string, string>,
): Promise<string> {
  const start = await svc.call('POST', `/v1/flows/${flowRef}/startChat`, { json: prefilledVariables ? { prefilledVariables } : {} })
  if (start.status !== 200) throw new Error(`startChat failed: ${start.status} ${start.text}`)
  for (const message of answers) {
    const step = await svc.call('POST', `/v1/sessions/${start.body.sessionId}/continueChat`, { json: { message } })
    if (step.status !== 200) throw new Error(`continueChat failed: ${step.status} ${step.text}`)
  }
  return start.body.resultId as string
}

/** The path of a flow's results API with `query` (values as given: tests also send hostile ones). */
export function resultsPath(flowId: string, query: Record<string, string> = {}, suffix = ''): string {
  const search = new URLSearchParams(query).toString()
  return `/v1/flows/${flowId}/results${suffix}${search ? `?${search}` : ''}`
}

/**
 * A survey written for the results tests: a name (saved to "Name"), an e-mail saved to no
 * variable (its column is named by its group, "Contact"), an age (saved to "Age"), then the end.
 * "Source" is prefilled by the page and "Notes" never set: both are variable columns.
 */
export function surveyFlow(overrides: Record<string, unknown> = {}): Record<string, any> {
  const input = (id: string, type: string, edge: string, variableId?: string) => ({
    id,
    type,
    outgoingEdgeId: edge,
    options: { ...(variableId ? { variableId } : {}), labels: { placeholder: type } },
  })
  return {
    version: '6',
    name: 'Survey',
    events: [{ id: 'start', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } }],
    groups: [
      { id: 'g-name', title: 'Ask name', graphCoordinates: { x: 0, y: 0 }, blocks: [input('b-name', 'text input', 'e1', 'v-name')] },
      { id: 'g-contact', title: 'Contact', graphCoordinates: { x: 0, y: 0 }, blocks: [input('b-email', 'email input', 'e2')] },
      { id: 'g-age', title: 'Ask age', graphCoordinates: { x: 0, y: 0 }, blocks: [input('b-age', 'number input', 'e3', 'v-age')] },
      {
        id: 'g-end',
        title: 'End',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [{ id: 'b-bye', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Thanks!' }] }] } }],
      },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g-name' } },
      { id: 'e1', from: { blockId: 'b-name' }, to: { groupId: 'g-contact' } },
      { id: 'e2', from: { blockId: 'b-email' }, to: { groupId: 'g-age' } },
      { id: 'e3', from: { blockId: 'b-age' }, to: { groupId: 'g-end' } },
    ],
    variables: [
      { id: 'v-name', name: 'Name' },
      { id: 'v-age', name: 'Age' },
      { id: 'v-source', name: 'Source' },
      { id: 'v-notes', name: 'Notes' },
    ],
    ...overrides,
  }
}

/** The survey flow (with `overrides`), imported and published over HTTP. */
export async function publishedSurvey(svc: TestService, overrides: Record<string, unknown> = {}) {
  const flow = await importOverHttp(svc, surveyFlow(overrides))
  await publishOverHttp(svc, flow.id)
  return flow
}
