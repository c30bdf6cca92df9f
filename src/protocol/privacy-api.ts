import type { ApiClient } from './api-client'
import {
  type AccessExport,
  accessExportSchema,
  auditResponseSchema,
  type EraseRequest,
  eraseResponseSchema,
  retentionResponseSchema,
  type VisitorSelectorInput,
} from './privacy'

/** The privacy API, call by call, as management-api.ts writes the others (console and command line). */

export const getRetention = (api: ApiClient) => api.read(retentionResponseSchema, 'GET', '/v1/privacy/retention')

export const setRetention = (api: ApiClient, retentionDays: number | null) =>
  api.read(retentionResponseSchema, 'PUT', '/v1/privacy/retention', { retentionDays })

/** Counts (`dryRun`) or erases everything held about the visitor the selector names. */
export const eraseVisitor = (api: ApiClient, request: EraseRequest) => api.read(eraseResponseSchema, 'POST', '/v1/privacy/erase', request)

export const exportVisitor = (api: ApiClient, selector: VisitorSelectorInput): Promise<AccessExport> =>
  api.read(accessExportSchema, 'POST', '/v1/privacy/access', selector)

export const privacyAudit = async (api: ApiClient) => (await api.read(auditResponseSchema, 'GET', '/v1/privacy/audit')).audit

/** The same export as a response, for a client that saves it as a file (the console). */
export const exportVisitorFile = (api: ApiClient, selector: VisitorSelectorInput): Promise<Response> =>
  api.send('POST', '/v1/privacy/access', selector)
