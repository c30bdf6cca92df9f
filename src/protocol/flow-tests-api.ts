import type { ApiClient } from './api-client'
import { type FlowTests, type FlowTestsResponse, flowTestsResponseSchema } from './flow-tests'

/** Flow tests through the API (the console; the command line runs them in its own process). */

/** Plays `tests` against the flow's draft, or published version `version`. */
export const runFlowTests = (api: ApiClient, flowId: string, tests: FlowTests | unknown, version?: number): Promise<FlowTestsResponse> =>
  api.read(
    flowTestsResponseSchema,
    'POST',
    `/v1/flows/${encodeURIComponent(flowId)}/test${version === undefined ? '' : `?version=${version}`}`,
    tests,
  )
