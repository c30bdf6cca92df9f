import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestDatabase } from '../../service/helpers/database'
import { createTestService, type TestService, WORKSPACE } from '../../service/helpers/service'

/** The demo's showcase flow as a visitor meets it, through the chat API. */
const SHOWCASE = resolve(import.meta.dirname, '../../../demo/flows/showcase.json')

const db = useTestDatabase()
let service: TestService

beforeAll(async () => {
  service = await createTestService(db)
})
afterAll(() => service?.close())

const plainTexts = (body: { messages?: Array<{ content?: { plainText?: string } }> }) =>
  (body.messages ?? []).map((message) => message.content?.plainText)

describe('the showcase flow', () => {
  it('asks again for a mistyped e-mail address without quoting an empty answer', async () => {
    const imported = await service.call('POST', '/v1/flows/import', {
      token: service.tokens.secret,
      json: { workspaceId: WORKSPACE, flow: JSON.parse(readFileSync(SHOWCASE, 'utf8')) },
    })
    const flowId = imported.body.flow.id as string
    await service.call('POST', `/v1/flows/${flowId}/publish`, { token: service.tokens.secret })
    const { sessionId } = (await service.call('POST', `/v1/flows/${flowId}/startChat`, { json: {} })).body as { sessionId: string }
    const answer = (message: string) => service.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message } })

    await answer('Ada')
    expect(plainTexts((await answer('36')).body)).toContain('What is your e-mail address?')
    const retry = await answer('not an e-mail')
    expect(retry.body.input.type).toBe('email input')
    expect(plainTexts(retry.body)).toEqual(['Hmm, that does not look like an e-mail address. Could you check it and try again?'])
  })
})
