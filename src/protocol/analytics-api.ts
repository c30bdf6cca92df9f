import { type AnalyticsQueryInput, flowAnalyticsSchema } from './analytics'
import type { ApiClient } from './api-client'

/** Where a flow's visitors drop off, over a date range and for one version or all (console and command line). */
export const getFlowAnalytics = (api: ApiClient, flowId: string, query: AnalyticsQueryInput = {}) =>
  api.read(flowAnalyticsSchema, 'GET', analyticsPath(flowId, { ...query, format: undefined }))

/** The same figures as a CSV file's response, to save (`Content-Disposition` names it). */
export const exportFlowAnalytics = (api: ApiClient, flowId: string, query: AnalyticsQueryInput = {}) =>
  api.send('GET', analyticsPath(flowId, { ...query, format: 'csv' }))

function analyticsPath(flowId: string, query: AnalyticsQueryInput): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, value)
  return `/v1/flows/${encodeURIComponent(flowId)}/analytics${search.size > 0 ? `?${search}` : ''}`
}
