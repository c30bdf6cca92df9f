import { importFlowSchema } from '../../protocol/index'
import { MAX_FLOWS_LIST } from '../../protocol/management'
import type { CredentialsKey } from '../credentials/credentials-key'
import { CredentialsVault } from '../credentials/credentials-vault'
import { DEMO_WORKSPACE_ID } from '../env-tokens'
import { toFlow } from '../flows/flow-document'
import { migrateToV6 } from '../flows/flow-migration'
import { importFlow, publishFlow, replaceFlow } from '../flows/flow-service'
import { changeFlowStanding, toFlowSummary } from '../flows/flow-summaries'
import { diffFlowVersions, listVersions, rollbackFlow, toFlowVersion } from '../flows/flow-versions'
import { parseBody } from '../http/body'
import { HttpError } from '../http/errors'
import { NO_RESULT_FILES, type ResultFiles } from '../results/result-files'
import { exportResults } from '../results/results-export'
import { deleteResults } from '../results/results-service'
import type { FlowRecord } from '../store/flows-repository'
import type { Store } from '../store/store'
import { createToken, listTokens, revokeToken } from '../tokens/tokens-service'
import { UsageError } from './args'
import type { FlowAdmin } from './flow-admin'

/**
 * The command line on the database itself (the service's settings: DATABASE_URL, or the embedded
 * database in DATA_DIR, which the service must not be running on). Every workspace is reachable;
 * `--workspace` chooses one (default `demo`, created when missing).
 */
export function localAdmin(input: {
  store: Store
  now: () => Date
  credentialsKey: () => Promise<CredentialsKey>
  /** The uploaded files of deleted results: the running service's (when it answers), else none reachable. */
  files?: ResultFiles
  /** FLOW_VERSIONS_KEEP, as the service prunes. */
  keepVersions?: number
  close: () => Promise<void>
}): FlowAdmin {
  const { store, now } = input
  const anyone = () => {}
  // Versions published from here are signed by the command line (it holds no token).
  const signed = { publishedBy: 'command line', keepVersions: input.keepVersions }

  const workspaceOf = async (workspace: string | undefined): Promise<string> => {
    const id = workspace ?? DEMO_WORKSPACE_ID
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new UsageError('--workspace must be 1–64 letters, digits, _ or -')
    await store.workspaces.ensure(id, id, now())
    return id
  }
  const flowOf = async (ref: string): Promise<FlowRecord> => {
    const flow = await store.flows.findByIdOrPublicId(ref)
    if (!flow) throw new HttpError('flow_not_found', `No flow with id or publicId "${ref}".`)
    return flow
  }
  // The same check as the API's: a file is an import body's `flow`.
  const flowFile = (file: unknown) => parseBody(importFlowSchema, migrateToV6(file))

  return {
    where: 'the database',
    async importFlow(file, workspace) {
      const flow = flowFile(file)
      return toFlow(await importFlow(store, { workspaceId: await workspaceOf(workspace), flow, now: now() }))
    },
    async replaceFlow(ref, file) {
      const flow = flowFile(file)
      return toFlow(await replaceFlow(store, { flowId: (await flowOf(ref)).id, flow, now: now(), authorize: anyone }))
    },
    async publish(ref, note) {
      const flow = await flowOf(ref)
      const published = await publishFlow(store, { flowId: flow.id, now: now(), authorize: anyone, ...signed, note })
      return { flow, publishedAt: published.publishedAt, version: toFlowVersion(published, published.versionId) }
    },
    listVersions: async (ref) => listVersions(store, await flowOf(ref)),
    diffVersions: async (ref, from, to) => diffFlowVersions(store, await flowOf(ref), from, to),
    async rollback(ref, number, note) {
      const flow = await flowOf(ref)
      const published = await rollbackFlow(store, { flowId: flow.id, number, now: now(), authorize: anyone, ...signed, note })
      return { flow, version: toFlowVersion(published, published.versionId) }
    },
    async changeStanding(ref, change) {
      return changeFlowStanding(store, { flowId: (await flowOf(ref)).id, change, now: now(), authorize: anyone })
    },
    async listFlows(workspace) {
      // Without --workspace, the flows of every workspace: the database is the operator's.
      return (await store.flows.listSummaries({ workspaceId: workspace, limit: MAX_FLOWS_LIST })).map(toFlowSummary)
    },
    async exportResults(ref, request) {
      return exportResults(store, await flowOf(ref), { ...request, visibleOnly: false })
    },
    async deleteResults(ref, target) {
      // Without the running service, uploaded files of these results are not reachable from here
      // (the storage is the service's): with their answers gone, its purge deletes them as files
      // no answer names.
      return deleteResults(store, input.files ?? NO_RESULT_FILES, await flowOf(ref), target)
    },
    async listTokens(workspace) {
      return listTokens(store, await workspaceOf(workspace))
    },
    async createToken(kind, label, workspace, agent) {
      const workspaceId = await workspaceOf(workspace)
      return { ...(await createToken(store, { workspaceId, kind, label, now: now(), ...(agent ? { agent } : {}) })), workspaceId }
    },
    async revokeToken(id, workspace) {
      await revokeToken(store, await workspaceOf(workspace), id, now())
    },
    async credentials(workspace) {
      const workspaceId = await workspaceOf(workspace)
      const vault = new CredentialsVault(store.credentials, await input.credentialsKey(), now)
      return {
        list: () => vault.list(workspaceId),
        create: (request) => vault.create(workspaceId, request),
        remove: (id) => vault.remove(workspaceId, id),
      }
    },
    close: input.close,
  }
}
