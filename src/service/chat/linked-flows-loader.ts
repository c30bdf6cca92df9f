import { isResourceRef } from '../context'
import type { LinkedFlowLoader, LinkedResult, StepOutcome } from '../engine/types'
import type { Repositories } from '../store/store'

/**
 * What a `Typebot link` may reach: the published flows of the session's own workspace, and
 * nothing else; a flow id of another workspace reads as missing, exactly like an unknown one.
 */
export function workspaceFlowLoader(repos: Repositories, workspaceId: string): LinkedFlowLoader {
  return {
    async current(ref) {
      if (!isResourceRef(ref)) return undefined
      const flow = await repos.flows.findByIdOrPublicId(ref)
      if (!flow || flow.workspaceId !== workspaceId) return undefined
      const version = await repos.publishedFlows.findCurrent(flow.id)
      return version && { flowId: flow.id, versionId: version.versionId, flow: version.snapshot }
    },
    async version(versionId) {
      const version = await repos.publishedFlows.findVersion(versionId)
      const flow = version && (await repos.flows.findById(version.flowId))
      return flow?.workspaceId === workspaceId ? version?.snapshot : undefined
    },
  }
}

/**
 * Stores what linked flows that keep their own result gave in this step: the result (created the
 * first time), its answers and its variables.
 */
export async function recordLinkedResults(
  repos: Repositories,
  input: { sessionId: string; outcome: StepOutcome; timestamp: string },
): Promise<void> {
  for (const result of input.outcome.linkedResults ?? []) {
    await ensureResult(repos, result, input.timestamp)
    const answers = input.outcome.answers.filter((answer) => answer.resultId === result.id)
    await repos.results.addAnswers(result.id, input.sessionId, answers, input.timestamp)
    await repos.results.update(result.id, {
      variables: result.variables,
      isCompleted: result.isCompleted,
      updatedAt: input.timestamp,
    })
  }
}

async function ensureResult(repos: Repositories, result: LinkedResult, timestamp: string): Promise<void> {
  if (await repos.results.findForFlow(result.id, result.flowId)) return
  await repos.results.insert({
    id: result.id,
    flowId: result.flowId,
    variables: {},
    isCompleted: false,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
}
