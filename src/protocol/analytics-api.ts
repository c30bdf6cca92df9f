import { type AnalyticsQueryInput, flowAnalyticsSchema } from './analytics'
import type { ApiClient } from './api-client'

/** Where a flow's visitors drop off, over a date range and for one version or all (console and command line). */
export function getFlowAnalytics(api: ApiClient, flowId: string, query: AnalyticsQueryInput = {}) {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, value)
  const suffix = search.size > 0 ? `?${search}` : ''
  return api.read(flowAnalyticsSchema, 'GET', `/v1/flows/${encodeURIComponent(flowId)}/analytics${suffix}`)
}
