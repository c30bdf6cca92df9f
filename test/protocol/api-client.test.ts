import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError, apiClient } from '../../src/protocol/api-client'
import { flowsListResponseSchema } from '../../src/protocol/management'
import { getFlow, importFlow, listFlows, listTokens } from '../../src/protocol/management-api'
import { useTestDatabase } from '../service/helpers/database'
import { createTestService, type TestService, WORKSPACE } from '../service/helpers/service'

/**
 * The contract's client as the console and the command line use it, against the service itself
 * (its app answering in-process): answers parsed with the contract's schemas, the service's
 * refusals as `ApiError`s with their code, words and details, and what is not the contract's
 * (no answer, an answer of another shape) named as such.
 */
const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const FLOW = JSON.parse(readFileSync(join(import.meta.dirname, '../browser/flows/cross-site.json'), 'utf8')) as Record<string, unknown>

const clientOf = (token: string, onError?: Parameters<typeof apiClient>[0]['onError']) =>
  apiClient({ baseUrl: 'http://service.test', token: () => token, fetch: async (url, init) => svc.app.request(url, init), onError })

describe('the API client of the contract', () => {
  it('sends the bearer token and answers what the schemas parsed', async () => {
    const api = clientOf(svc.tokens.secret)
    const { workspaceId } = await listTokens(api)
    expect(workspaceId).toBe(WORKSPACE)
    const made = await importFlow(api, workspaceId, FLOW)
    expect((await listFlows(api)).map((flow) => flow.id)).toEqual([made.id])
    expect((await getFlow(api, made.id)).groups.length).toBeGreaterThan(0)
  })

  it("throws the service's refusals with their status, code, words and details", async () => {
    const api = clientOf(svc.tokens.secret)
    const missing = await getFlow(api, 'no-such-flow').catch((error: unknown) => error)
    expect(missing).toBeInstanceOf(ApiError)
    expect(missing).toMatchObject({ status: 404, code: 'flow_not_found' })

    const refused = await importFlow(api, WORKSPACE, { name: 'Not a flow' }).catch((error: unknown) => error)
    expect(refused).toMatchObject({ status: 400, code: 'invalid_body' })
    expect(JSON.stringify((refused as ApiError).details)).toContain('flow.groups')
  })

  it('lets the program see each refusal with the token it was sent with, and throw its own error instead', async () => {
    const seen: Array<[number, string | null | undefined]> = []
    const api = clientOf('fs_sk_unknown', (error, bearer) => {
      seen.push([error.status, bearer])
      return error.status === 401 ? new Error('signed out') : undefined
    })
    await expect(listFlows(api)).rejects.toThrow('signed out')
    expect(seen).toEqual([[401, 'fs_sk_unknown']])
  })

  it('names an answer that is not the contract’s, and a service that cannot be reached', async () => {
    const api = clientOf(svc.tokens.secret)
    // The health answer is not a list of flows: the client does not pass it on as one.
    await expect(api.read(flowsListResponseSchema, 'GET', '/v1/health')).rejects.toMatchObject({ status: 200, code: 'unexpected' })

    // Port 9 (discard) on loopback: nothing listens there in the test machine.
    const unreachable = apiClient({ baseUrl: 'http://127.0.0.1:9', token: () => svc.tokens.secret })
    await expect(listFlows(unreachable)).rejects.toMatchObject({ status: 0, code: 'network' })
  })
})
