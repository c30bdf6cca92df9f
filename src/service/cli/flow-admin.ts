import type { CreateCredentialRequest, Credential } from '../../protocol/credentials'
import type { Flow } from '../../protocol/index'
import type { ApiToken, FlowStandingChange, FlowSummary, FlowVersion, TokenKind, VersionDiff } from '../../protocol/management'
import type { ExportFormat } from '../../protocol/results'
import type { ResultFilters } from '../store/results-repository'

/**
 * What the command line does, wherever the flows are: in the database it opens itself
 * (local-admin.ts), or behind a running service's API (api-admin.ts, when FLOW_SERVICE_URL is
 * set). Commands (commands.ts) parse their arguments and print; both sides give the same answers
 * and throw the same `HttpError`s, so a command reads and prints the same either way.
 *
 * `workspace` is the `--workspace` option: locally, the workspace to work in (default `demo`,
 * created when missing); through the API the token decides, and the option is refused.
 */
export interface FlowAdmin {
  /** Where the commands go, for messages. */
  readonly where: string
  /** `file` is the parsed JSON of a flow export, checked here like an import body. */
  importFlow(file: unknown, workspace: string | undefined): Promise<Flow>
  replaceFlow(ref: string, file: unknown): Promise<Flow>
  publish(ref: string, note?: string): Promise<{ flow: Pick<Flow, 'id' | 'publicId'>; publishedAt: string; version: FlowVersion }>
  /** The flow's published versions, newest first. */
  listVersions(ref: string): Promise<FlowVersion[]>
  diffVersions(ref: string, from: number, to: number): Promise<VersionDiff>
  /** Publishes version `number` again as the newest; answers the new version. */
  rollback(ref: string, number: number, note?: string): Promise<{ flow: Pick<Flow, 'id' | 'publicId'>; version: FlowVersion }>
  changeStanding(ref: string, change: FlowStandingChange): Promise<FlowSummary>
  listFlows(workspace: string | undefined): Promise<FlowSummary[]>
  exportResults(ref: string, request: { format: ExportFormat; filters: ResultFilters }): Promise<ReadableStream<Uint8Array>>
  /** Deletes the flow's results named (or all of them); answers how many went. */
  deleteResults(ref: string, target: { resultIds: string[] } | { all: true }): Promise<number>
  listTokens(workspace: string | undefined): Promise<ApiToken[]>
  createToken(
    kind: TokenKind,
    label: string | undefined,
    workspace: string | undefined,
    /** An agent token's person. */
    agent?: { name: string; avatarUrl?: string },
  ): Promise<{ token: ApiToken; value: string; workspaceId: string }>
  revokeToken(id: string, workspace: string | undefined): Promise<void>
  credentials(workspace: string | undefined): Promise<CredentialsAdmin>
  close(): Promise<void>
}

export interface CredentialsAdmin {
  list(): Promise<Credential[]>
  create(request: CreateCredentialRequest): Promise<Credential>
  remove(id: string): Promise<void>
}
