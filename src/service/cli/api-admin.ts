import { z } from 'zod/mini'
import { credentialSchema } from '../../protocol/credentials'
import { errorBodySchema, type ErrorCode, ERROR_CODES, flowResponseSchema } from '../../protocol/index'
import {
  createTokenResponseSchema,
  type FlowSummary,
  flowsListResponseSchema,
  flowSummaryResponseSchema,
  tokensListResponseSchema,
} from '../../protocol/management'
import { deleteResultsResponseSchema } from '../../protocol/results'
import { HttpError } from '../http/errors'
import { UsageError } from './args'
import type { FlowAdmin } from './flow-admin'
import { safeJson } from './safe-json'

/**
 * The command line through a running service's API (FLOW_SERVICE_URL and FLOW_SECRET_TOKEN):
 * what works beside a service holding the embedded database, or from another machine. The token
 * decides the workspace. Answers are checked with the contract's schemas; the service's errors
 * come back as the same `HttpError`s the database side throws.
 */
export function apiAdmin(input: { url: string; token: string; fetch?: typeof fetch }): FlowAdmin {
  const base = input.url.replace(/\/+$/, '')
  const send = input.fetch ?? fetch

  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    let response: Response
    try {
      response = await send(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${input.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    } catch (error) {
      throw new Error(`Cannot reach the service at ${base}: ${(error as Error).cause ?? (error as Error).message}`)
    }
    if (response.ok) return response
    const text = await response.text()
    const parsed = errorBodySchema.safeParse(safeJson(text))
    if (!parsed.success) throw new Error(`The service at ${base} answered ${response.status}: ${text.slice(0, 200)}`)
    const { code, message, details } = parsed.data.error
    throw new HttpError(code in ERROR_CODES ? (code as ErrorCode) : 'internal', message, details)
  }
  const json = async <S extends z.ZodMiniType>(schema: S, method: string, path: string, body?: unknown): Promise<z.output<S>> =>
    schema.parse(await (await call(method, path, body)).json())

  const noWorkspace = (workspace: string | undefined) => {
    if (workspace !== undefined) throw new UsageError('--workspace does not go with FLOW_SERVICE_URL: the token decides the workspace')
  }
  /** A flow from its id or public id (management paths take the id). */
  const flowOf = async (ref: string): Promise<FlowSummary> => {
    const { flows } = await json(flowsListResponseSchema, 'GET', '/v1/flows')
    const flow = flows.find((candidate) => candidate.id === ref) ?? flows.find((candidate) => candidate.publicId === ref)
    if (!flow) throw new HttpError('flow_not_found', `No flow with id or publicId "${ref}".`)
    return flow
  }
  const flowId = async (ref: string) => (await flowOf(ref)).id
  const tokens = () => json(tokensListResponseSchema, 'GET', '/v1/tokens')

  return {
    where: base,
    async importFlow(file, workspace) {
      noWorkspace(workspace)
      // The import body names the workspace: the token's.
      const { workspaceId } = await tokens()
      return (await json(flowResponseSchema, 'POST', '/v1/flows/import', { workspaceId, flow: file })).flow
    },
    async replaceFlow(ref, file) {
      return (await json(flowResponseSchema, 'PUT', `/v1/flows/${await flowId(ref)}`, { flow: file })).flow
    },
    async publish(ref) {
      const flow = await flowOf(ref)
      const { publishedFlow } = await json(publishAnswer, 'POST', `/v1/flows/${flow.id}/publish`)
      return { flow, publishedAt: publishedFlow.updatedAt }
    },
    async changeStanding(ref, change) {
      return (await json(flowSummaryResponseSchema, 'POST', `/v1/flows/${await flowId(ref)}/${change}`)).flow
    },
    async listFlows(workspace) {
      noWorkspace(workspace)
      return (await json(flowsListResponseSchema, 'GET', '/v1/flows')).flows
    },
    async exportResults(ref, request) {
      const query = new URLSearchParams({ format: request.format })
      const { filters } = request
      if (filters.completed !== undefined) query.set('completed', String(filters.completed))
      if (filters.from !== undefined) query.set('from', filters.from)
      if (filters.to !== undefined) query.set('to', filters.to)
      if (filters.text !== undefined) query.set('q', filters.text)
      const response = await call('GET', `/v1/flows/${await flowId(ref)}/results/export?${query}`)
      return response.body ?? new ReadableStream({ start: (controller) => controller.close() })
    },
    async deleteResults(ref, target) {
      return (await json(deleteResultsResponseSchema, 'POST', `/v1/flows/${await flowId(ref)}/results/delete`, target)).deleted
    },
    async listTokens(workspace) {
      noWorkspace(workspace)
      return (await tokens()).tokens
    },
    async createToken(kind, label, workspace) {
      noWorkspace(workspace)
      const made = await json(createTokenResponseSchema, 'POST', '/v1/tokens', { kind, ...(label === undefined ? {} : { label }) })
      return { ...made, workspaceId: (await tokens()).workspaceId }
    },
    async revokeToken(id, workspace) {
      noWorkspace(workspace)
      await call('DELETE', `/v1/tokens/${encodeURIComponent(id)}`)
    },
    async credentials(workspace) {
      noWorkspace(workspace)
      return {
        list: async () => (await json(z.looseObject({ credentials: z.array(credentialSchema) }), 'GET', '/v1/credentials')).credentials,
        create: async (request) =>
          (await json(z.looseObject({ credential: credentialSchema }), 'POST', '/v1/credentials', request)).credential,
        remove: async (id) => void (await call('DELETE', `/v1/credentials/${encodeURIComponent(id)}`)),
      }
    },
    close: async () => undefined,
  }
}

/** What a publish answers, as far as the command line reads it. */
const publishAnswer = z.looseObject({ publishedFlow: z.looseObject({ updatedAt: z.string() }) })
