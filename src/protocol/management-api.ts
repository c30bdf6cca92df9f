import { z } from 'zod/mini'
import type { ApiClient } from './api-client'
import { flowResponseSchema, getFlowResponseSchema, publishedFlowResponseSchema, publishResponseSchema, type UpdateFlow } from './flow'
import {
  createTokenResponseSchema,
  type FlowStandingChange,
  flowSummaryResponseSchema,
  flowsListResponseSchema,
  flowVersionResponseSchema,
  flowVersionsResponseSchema,
  publishedVersionResponseSchema,
  revokeTokenResponseSchema,
  type TokenKind,
  tokensListResponseSchema,
  versionDiffResponseSchema,
} from './management'
import { deleteResultsResponseSchema, type ExportFormat, resultDetailSchema, resultsPageSchema } from './results'
import { webhookDeliveriesResponseSchema, webhookResponseSchema } from './webhooks'

/**
 * The secret-token API, call by call: the method, the path and the schema its answer is parsed
 * with (docs/reference/http-api.md). The console and the command line both call the service
 * through these, so each call is spelled once. Each is its own function, so a bundle keeps only
 * the calls (and schemas) it uses.
 */

const part = encodeURIComponent
const flowPath = (flowId: string) => `/v1/flows/${part(flowId)}`

export const listFlows = async (api: ApiClient) => (await api.read(flowsListResponseSchema, 'GET', '/v1/flows')).flows

export const getFlow = async (api: ApiClient, flowId: string) => (await api.read(getFlowResponseSchema, 'GET', flowPath(flowId))).flow

/** A new flow in the token's workspace from an export's content (`flow` is checked by the service). */
export const importFlow = async (api: ApiClient, workspaceId: string, flow: unknown) =>
  (await api.read(flowResponseSchema, 'POST', '/v1/flows/import', { workspaceId, flow })).flow

/** The flow becomes the export's content, keeping its ids, standing and results. */
export const replaceFlow = async (api: ApiClient, flowId: string, flow: unknown) =>
  (await api.read(flowResponseSchema, 'PUT', flowPath(flowId), { flow })).flow

export const updateFlow = async (api: ApiClient, flowId: string, flow: UpdateFlow) =>
  (await api.read(flowResponseSchema, 'PATCH', flowPath(flowId), { flow })).flow

/** Publishes the flow as it is; `note` is kept with the new version. */
export const publishFlow = async (api: ApiClient, flowId: string, note?: string) => {
  const answer = await api.read(
    z.looseObject({ ...publishResponseSchema.shape, ...publishedVersionResponseSchema.shape }),
    'POST',
    `${flowPath(flowId)}/publish`,
    note === undefined ? undefined : { note },
  )
  return Object.assign(answer.publishedFlow, { publishedVersion: answer.version })
}

/** The flow's published versions, newest first. */
export const listVersions = async (api: ApiClient, flowId: string) =>
  (await api.read(flowVersionsResponseSchema, 'GET', `${flowPath(flowId)}/versions`)).versions

/** One version and the flow it published. */
export const getVersion = (api: ApiClient, flowId: string, number: number) =>
  api.read(flowVersionResponseSchema, 'GET', `${flowPath(flowId)}/versions/${number}`)

/** What changed from version `from` to version `to`, in the author's words. */
export const diffVersions = (api: ApiClient, flowId: string, from: number, to: number) =>
  api.read(versionDiffResponseSchema, 'GET', `${flowPath(flowId)}/versions/diff?from=${from}&to=${to}`)

/** Publishes version `number` again as the newest version; answers the new version. */
export const rollbackFlow = async (api: ApiClient, flowId: string, number: number, note?: string) =>
  (
    await api.read(
      publishedVersionResponseSchema,
      'POST',
      `${flowPath(flowId)}/versions/${number}/rollback`,
      note === undefined ? undefined : { note },
    )
  ).version

export const changeFlowStanding = async (api: ApiClient, flowId: string, change: FlowStandingChange) =>
  (await api.read(flowSummaryResponseSchema, 'POST', `${flowPath(flowId)}/${change}`)).flow

/** The live version, whole (a secret token reads all of it). */
export const getPublishedFlow = async (api: ApiClient, flowId: string) =>
  (await api.read(publishedFlowResponseSchema, 'GET', `${flowPath(flowId)}/publishedFlow`)).publishedFlow

/** The filters of the results list and export, as the API's query names them. */
export interface ResultsFilters {
  completed?: boolean
  /** A date or a time with its zone. */
  from?: string
  to?: string
  /** Some answer contains this text. */
  q?: string
  /** The conversation belongs to this verified user. */
  userId?: string
}

function resultsQuery(filters: ResultsFilters, extra: Record<string, string>): string {
  const query = new URLSearchParams(extra)
  for (const [name, value] of Object.entries(filters)) if (value !== undefined && value !== '') query.set(name, String(value))
  return query.toString()
}

export const listResults = (api: ApiClient, flowId: string, filters: ResultsFilters, page: { limit?: number; cursor?: string } = {}) =>
  api.read(
    resultsPageSchema,
    'GET',
    `${flowPath(flowId)}/results?${resultsQuery(filters, {
      ...(page.limit === undefined ? {} : { limit: String(page.limit) }),
      ...(page.cursor === undefined ? {} : { cursor: page.cursor }),
    })}`,
  )

export const getResult = (api: ApiClient, flowId: string, resultId: string) =>
  api.read(resultDetailSchema, 'GET', `${flowPath(flowId)}/results/${part(resultId)}`)

/** The export file's response, to stream or save (`Content-Disposition` names it). */
export const exportResults = (api: ApiClient, flowId: string, format: ExportFormat, filters: ResultsFilters) =>
  api.send('GET', `${flowPath(flowId)}/results/export?${resultsQuery(filters, { format })}`)

/** Deletes the results named (or all of them); answers how many went. */
export const deleteResults = async (api: ApiClient, flowId: string, target: { resultIds: string[] } | { all: true }) =>
  (await api.read(deleteResultsResponseSchema, 'POST', `${flowPath(flowId)}/results/delete`, target)).deleted

export const deleteResult = async (api: ApiClient, flowId: string, resultId: string) =>
  (await api.read(deleteResultsResponseSchema, 'DELETE', `${flowPath(flowId)}/results/${part(resultId)}`)).deleted

export const getWebhook = async (api: ApiClient, flowId: string) =>
  (await api.read(webhookResponseSchema, 'GET', `${flowPath(flowId)}/webhook`)).webhook

export const listWebhookDeliveries = async (api: ApiClient, flowId: string, limit: number) =>
  (await api.read(webhookDeliveriesResponseSchema, 'GET', `${flowPath(flowId)}/webhook-deliveries?limit=${limit}`)).deliveries

/** The token's workspace and its tokens (never their values). */
export const listTokens = (api: ApiClient) => api.read(tokensListResponseSchema, 'GET', '/v1/tokens')

/** A new token: `value` is the token itself, answered this once. */
export const createToken = (api: ApiClient, kind: TokenKind, label?: string, agent?: { name: string; avatarUrl?: string }) =>
  api.read(createTokenResponseSchema, 'POST', '/v1/tokens', {
    kind,
    ...(label === undefined ? {} : { label }),
    ...(agent === undefined ? {} : { agent }),
  })

export const revokeToken = async (api: ApiClient, tokenId: string) =>
  void (await api.read(revokeTokenResponseSchema, 'DELETE', `/v1/tokens/${part(tokenId)}`))
