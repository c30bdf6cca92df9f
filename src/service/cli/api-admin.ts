import { apiClient } from '../../protocol/api-client'
import { createCredential, listCredentials, removeCredential } from '../../protocol/credentials-api'
import { ERROR_CODES, type ErrorCode } from '../../protocol/errors'
import type { FlowSummary } from '../../protocol/management'
import {
  changeFlowStanding,
  createToken,
  deleteResults,
  diffVersions,
  exportResults,
  importFlow,
  listFlows,
  listTokens,
  listVersions,
  publishFlow,
  replaceFlow,
  revokeToken,
  rollbackFlow,
} from '../../protocol/management-api'
import { HttpError } from '../http/errors'
import { UsageError } from './args'
import type { FlowAdmin } from './flow-admin'

/**
 * The command line through a running service's API (FLOW_SERVICE_URL and FLOW_SECRET_TOKEN):
 * what works beside a service holding the embedded database, or from another machine. The token
 * decides the workspace. Calls and their schemas are the contract's (protocol/management-api.ts,
 * as the console makes them); the service's errors come back as the same `HttpError`s the
 * database side throws.
 */
export function apiAdmin(input: { url: string; token: string; fetch?: typeof fetch }): FlowAdmin {
  const api = apiClient({
    baseUrl: input.url,
    token: () => input.token,
    fetch: input.fetch,
    // The contract's refusals as `HttpError`s; an unreachable or strange service as a plain error.
    onError: (error) =>
      error.code in ERROR_CODES ? new HttpError(error.code as ErrorCode, error.message, error.details) : new Error(error.message),
  })
  const base = api.baseUrl

  const noWorkspace = (workspace: string | undefined) => {
    if (workspace !== undefined) throw new UsageError('--workspace does not go with FLOW_SERVICE_URL: the token decides the workspace')
  }
  /** A flow from its id or public id (management paths take the id). */
  const flowOf = async (ref: string): Promise<FlowSummary> => {
    const flows = await listFlows(api)
    const flow = flows.find((candidate) => candidate.id === ref) ?? flows.find((candidate) => candidate.publicId === ref)
    if (!flow) throw new HttpError('flow_not_found', `No flow with id or publicId "${ref}".`)
    return flow
  }
  const flowId = async (ref: string) => (await flowOf(ref)).id

  return {
    where: base,
    async importFlow(file, workspace) {
      noWorkspace(workspace)
      // The import body names the workspace: the token's.
      const { workspaceId } = await listTokens(api)
      return importFlow(api, workspaceId, file)
    },
    replaceFlow: async (ref, file) => replaceFlow(api, await flowId(ref), file),
    async publish(ref, note) {
      const flow = await flowOf(ref)
      const published = await publishFlow(api, flow.id, note)
      return { flow, publishedAt: published.updatedAt, version: published.publishedVersion }
    },
    listVersions: async (ref) => listVersions(api, await flowId(ref)),
    diffVersions: async (ref, from, to) => diffVersions(api, await flowId(ref), from, to),
    async rollback(ref, number, note) {
      const flow = await flowOf(ref)
      return { flow, version: await rollbackFlow(api, flow.id, number, note) }
    },
    changeStanding: async (ref, change) => changeFlowStanding(api, await flowId(ref), change),
    async listFlows(workspace) {
      noWorkspace(workspace)
      return listFlows(api)
    },
    async exportResults(ref, request) {
      const { filters } = request
      const response = await exportResults(api, await flowId(ref), request.format, {
        completed: filters.completed,
        from: filters.from,
        to: filters.to,
        q: filters.text,
      })
      return response.body ?? new ReadableStream({ start: (controller) => controller.close() })
    },
    deleteResults: async (ref, target) => deleteResults(api, await flowId(ref), target),
    async listTokens(workspace) {
      noWorkspace(workspace)
      return (await listTokens(api)).tokens
    },
    async createToken(kind, label, workspace, agent) {
      noWorkspace(workspace)
      const made = await createToken(api, kind, label, agent)
      return { ...made, workspaceId: (await listTokens(api)).workspaceId }
    },
    async revokeToken(id, workspace) {
      noWorkspace(workspace)
      await revokeToken(api, id)
    },
    async credentials(workspace) {
      noWorkspace(workspace)
      return {
        list: () => listCredentials(api),
        create: (request) => createCredential(api, request),
        remove: (id) => removeCredential(api, id),
      }
    },
    close: async () => undefined,
  }
}
