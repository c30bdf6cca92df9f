import { isResourceRef } from '../context'
import type { LinkedFlowLoader } from '../engine/core/types'
import type { Repositories } from '../store/store'
import type { PublishedVersions } from './published-versions'

/**
 * What a `Typebot link` may reach: the published flows of the session's own workspace, and
 * nothing else; a flow id of another workspace reads as missing, exactly like an unknown one.
 * Snapshots come from the process's cache of immutable published versions.
 */
export function workspaceFlowLoader(
  repos: Pick<Repositories, 'flows' | 'publishedFlows'>,
  workspaceId: string,
  versions: PublishedVersions,
): LinkedFlowLoader {
  return {
    async current(ref) {
      if (!isResourceRef(ref)) return undefined
      const flow = await repos.flows.findByIdOrPublicId(ref)
      if (!flow || flow.workspaceId !== workspaceId || flow.isArchived) return undefined
      const versionId = await repos.publishedFlows.currentVersionId(flow.id)
      const version = versionId ? await versions.get(versionId) : undefined
      return version && { flowId: flow.id, versionId: version.versionId, flow: version.snapshot }
    },
    async version(versionId) {
      const version = await versions.get(versionId)
      const flow = version && (await repos.flows.findById(version.flowId))
      return flow?.workspaceId === workspaceId ? version?.snapshot : undefined
    },
  }
}
