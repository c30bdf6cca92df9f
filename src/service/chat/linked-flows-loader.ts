import type { LinkedFlowLoader } from '../engine/core/ports'
import { findLiveFlow } from '../flows/live-flow'
import type { PublishedVersions } from '../flows/published-versions'
import { isResourceRef } from '../ids'
import type { Repositories } from '../store/store'

/**
 * What a `Typebot link` may reach: the published flows of the session's own workspace, and
 * nothing else; a flow id of another workspace reads as missing, exactly like an unknown one.
 * Snapshots come from the process's cache of immutable published versions.
 */
export function workspaceFlowLoader(
  repos: Pick<Repositories, 'flows' | 'chatSteps'>,
  workspaceId: string,
  versions: PublishedVersions,
): LinkedFlowLoader {
  return {
    async current(ref) {
      if (!isResourceRef(ref)) return undefined
      // A link starts the linked flow anew: the live-flow rule of a start (a closed flow still runs here).
      const { flow, version } = await findLiveFlow({ store: repos, versions }, ref, 'start')
      if (!flow || flow.workspaceId !== workspaceId || !version) return undefined
      return { flowId: flow.id, versionId: version.versionId, flow: version.snapshot }
    },
    async version(versionId) {
      const version = await versions.get(versionId)
      const flow = version && (await repos.flows.findById(version.flowId))
      return flow?.workspaceId === workspaceId ? version?.snapshot : undefined
    },
  }
}
