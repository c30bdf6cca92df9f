import type { FlowTests, FlowTestsResponse } from '../../protocol/flow-tests'
import { workspaceFlowLoader } from '../chat/linked-flows-loader'
import type { Engine } from '../engine/core/types'
import type { SandboxPool } from '../engine/sandbox/sandbox-pool'
import { toPublishedSnapshot } from '../flows/flow-document'
import { getVersion } from '../flows/flow-versions'
import type { PublishedVersions } from '../flows/published-versions'
import type { FlowRecord } from '../store/flows-repository'
import type { Store } from '../store/store'
import { runFlowTests } from './run-flow-tests'

/**
 * A stored flow's tests, as the command line and the API run them: on the flow as it is now (its
 * draft, what `publish` would freeze) or on one of its published versions, with the flows of its
 * own workspace reachable by its links.
 */
export interface FlowTestDeps {
  store: Store
  engine: Engine
  versions: PublishedVersions
  sandbox?: SandboxPool
  now?: () => Date
}

export async function testStoredFlow(
  deps: FlowTestDeps,
  flow: FlowRecord,
  tests: FlowTests,
  options: { version?: number; deadline?: number } = {},
): Promise<FlowTestsResponse> {
  const snapshot =
    options.version === undefined
      ? toPublishedSnapshot(flow, { publishedFlowId: flow.id, createdAt: flow.createdAt, updatedAt: flow.updatedAt })
      : (await getVersion(deps.store, flow, options.version)).publishedFlow
  const scenarios = await runFlowTests(snapshot, tests, {
    engine: deps.engine,
    store: deps.store,
    flows: workspaceFlowLoader(deps.store, flow.workspaceId, deps.versions),
    workspaceId: flow.workspaceId,
    flowId: flow.id,
    sandbox: deps.sandbox,
    now: deps.now,
    deadline: options.deadline,
  })
  return {
    passed: scenarios.every((scenario) => scenario.passed),
    ran: options.version === undefined ? 'draft' : { version: options.version },
    scenarios,
  }
}
