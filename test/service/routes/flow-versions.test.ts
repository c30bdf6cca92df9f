import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import { flowVersionResponseSchema, flowVersionsResponseSchema, versionDiffResponseSchema } from '../../../src/protocol/management'
import { resultDetailSchema, resultsPageSchema } from '../../../src/protocol/results'
import { describeChange } from '../../../src/service/flows/version-diff'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp } from '../helpers/flows'
import { resultsPath } from '../helpers/results'
import { type CallResult, createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const secret = (method: string, path: string, json?: unknown) =>
  svc.call(method, path, { token: svc.tokens.secret, ...(json === undefined ? {} : { json }) })
const expectError = (res: CallResult, status: number, code: string) => {
  expect(res.status, res.text).toBe(status)
  expect(errorBodySchema.parse(res.body).error.code).toBe(code)
}
const firstText = (res: CallResult) => res.body.messages[0].content.richText[0].children[0].text as string

/** Replaces the flow's content with `flow` and publishes it with `note`. */
async function publishAs(flowId: string, flow: Record<string, any>, note?: string) {
  expect((await secret('PUT', `/v1/flows/${flowId}`, { flow })).status).toBe(200)
  svc.clock.advance(1_000)
  const res = await secret('POST', `/v1/flows/${flowId}/publish`, note === undefined ? undefined : { note })
  expect(res.status, res.text).toBe(200)
  return res.body.version
}

/** Three versions: 2 changes the greeting, 3 changes the age question's placeholder and adds a variable. */
function threeVersions(): [Record<string, any>, Record<string, any>, Record<string, any>] {
  const v1 = greetingFlow()
  const v2 = greetingFlow()
  v2.groups[0].blocks[0].content.richText[0].children[0].text = 'Hello from version two! Your name?'
  const v3 = structuredClone(v2)
  v3.groups[1].blocks[0].options.labels.placeholder = 'How old are you?'
  v3.variables.push({ id: 'vEmail', name: 'Email' })
  return [v1, v2, v3]
}

describe('flow versions', () => {
  it('keeps every publish as a numbered version; diffs, rolls back, and lets a conversation finish on its own version', async () => {
    const [v1, v2, v3] = threeVersions()
    const flow = await importOverHttp(svc, v1)
    const one = await publishAs(flow.id, v1, 'First go')
    expect(one).toEqual({
      number: 1,
      publishedAt: expect.any(String),
      publishedBy: expect.any(String),
      note: 'First go',
      restoredFrom: null,
      isLive: true,
    })
    await publishAs(flow.id, v2)

    // A visitor starts on version 2…
    const start = await svc.call('POST', `/v1/flows/${flow.publicId}/startChat`, { json: {} })
    expect(firstText(start)).toBe('Hello from version two! Your name?')
    await publishAs(flow.id, v3, 'Friendlier age question')

    // …diff 1↔3 says exactly what changed: the greeting, the placeholder, the new variable.
    const diff = versionDiffResponseSchema.parse((await secret('GET', `/v1/flows/${flow.id}/versions/diff?from=1&to=3`)).body)
    expect(diff.from.number).toBe(1)
    expect(diff.to).toMatchObject({ number: 3, note: 'Friendlier age question', isLive: true })
    expect(diff.changes.map((change) => [change.area, change.change, change.id])).toEqual([
      ['block', 'changed', 'b1'],
      ['block', 'changed', 'b3'],
      ['variable', 'added', 'vEmail'],
    ])
    expect(diff.changes.flatMap(describeChange)).toContain(
      `Block 'Age' (number input) in group 'Bye': placeholder changed from "Your age" to "How old are you?"`,
    )

    // …roll back to 1: a new version 4, noting where it came from, and the flow's content is 1's again.
    svc.clock.advance(1_000)
    const rolled = await secret('POST', `/v1/flows/${flow.id}/versions/1/rollback`)
    expect(rolled.status, rolled.text).toBe(200)
    expect(rolled.body.version).toMatchObject({ number: 4, restoredFrom: 1, note: 'Rollback to version 1', isLive: true })
    expect(rolled.body.flow.groups[0].blocks[0].content.richText[0].children[0].text).toBe('Hello! What is your name?')
    const fresh = await svc.call('POST', `/v1/flows/${flow.publicId}/startChat`, { json: {} })
    expect(firstText(fresh)).toBe('Hello! What is your name?')
    expect((await secret('GET', `/v1/flows/${flow.id}/versions/diff?from=1&to=4`)).body.changes, 'version 4 is version 1 again').toEqual([])

    // …the conversation started on 2 finishes on 2: 3's placeholder never reaches it.
    const step = await svc.call('POST', `/v1/sessions/${start.body.sessionId}/continueChat`, { json: { message: 'Ada' } })
    expect(step.status, step.text).toBe(200)
    expect(step.body.input.options.labels.placeholder).toBe('Your age')
    const end = await svc.call('POST', `/v1/sessions/${start.body.sessionId}/continueChat`, { json: { message: '36' } })
    expect(firstText(end)).toBe('Thanks Ada, bye!')

    // Results say which version they ran, in the list, the detail and the exports.
    const page = resultsPageSchema.parse((await secret('GET', resultsPath(flow.id))).body)
    expect(page.results.map((row) => [row.id, row.version])).toEqual([
      [fresh.body.resultId, 4],
      [start.body.resultId, 2],
    ])
    const detail = resultDetailSchema.parse((await secret('GET', `/v1/flows/${flow.id}/results/${start.body.resultId}`)).body)
    expect(detail.result.version).toBe(2)
    const csv = await secret('GET', resultsPath(flow.id, { format: 'csv' }, '/export'))
    const [head, ...rows] = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/)
    expect(head?.split(',').slice(0, 5)).toEqual(['Result id', 'Created at', 'Updated at', 'Completed', 'Version'])
    expect(rows.map((row) => row.split(',')[4]).sort()).toEqual(['2', '4'])
    const jsonl = await secret('GET', resultsPath(flow.id, { format: 'jsonl' }, '/export'))
    expect(
      jsonl.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).version)
        .sort(),
    ).toEqual([2, 4])

    // The list, newest first, with who published each.
    const { versions } = flowVersionsResponseSchema.parse((await secret('GET', `/v1/flows/${flow.id}/versions`)).body)
    expect(versions.map((version) => [version.number, version.isLive, version.restoredFrom])).toEqual([
      [4, true, 1],
      [3, false, null],
      [2, false, null],
      [1, false, null],
    ])
    const shown = flowVersionResponseSchema.parse((await secret('GET', `/v1/flows/${flow.id}/versions/2`)).body)
    expect(shown.version.number).toBe(2)
    expect(shown.publishedFlow).toMatchObject({ flowId: flow.id })
  })

  it("signs versions with the publishing token's label, and refuses what is not the caller's or not a version", async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    const labelled = await secret('POST', '/v1/tokens', { kind: 'secret', label: 'Deploy bot' })
    const res = await svc.call('POST', `/v1/flows/${flow.id}/publish`, { token: labelled.body.value, json: { note: 'From CI' } })
    expect(res.body.version).toMatchObject({ number: 1, publishedBy: 'Deploy bot', note: 'From CI' })

    expectError(await secret('GET', `/v1/flows/${flow.id}/versions/7`), 404, 'not_found')
    expectError(await secret('GET', `/v1/flows/${flow.id}/versions/zero`), 400, 'invalid_query')
    expectError(await secret('GET', `/v1/flows/${flow.id}/versions/diff?from=1`), 400, 'invalid_query')
    expectError(await secret('POST', `/v1/flows/${flow.id}/versions/9/rollback`), 404, 'not_found')
    expectError(await secret('POST', `/v1/flows/${flow.id}/publish`, { note: 'x'.repeat(501) }), 400, 'invalid_body')
    const theirs = { token: svc.tokens.otherSecret }
    expectError(await svc.call('GET', `/v1/flows/${flow.id}/versions`, theirs), 404, 'flow_not_found')
    expectError(await svc.call('POST', `/v1/flows/${flow.id}/versions/1/rollback`, theirs), 404, 'flow_not_found')
    expectError(await svc.call('GET', `/v1/flows/${flow.id}/versions`, { token: svc.tokens.publishable }), 403, 'forbidden')
  })

  it('prunes old versions only when FLOW_VERSIONS_KEEP says so, never one a conversation runs on', async () => {
    await svc.close()
    svc = await createTestService(db, { config: { keepVersions: 2 } })
    const flow = await importOverHttp(svc, greetingFlow())
    await publishAs(flow.id, greetingFlow())
    const start = await svc.call('POST', `/v1/flows/${flow.publicId}/startChat`, { json: {} })
    for (let i = 0; i < 3; i++) await publishAs(flow.id, greetingFlow({ name: `Greeting ${i}` }))
    const { versions } = flowVersionsResponseSchema.parse((await secret('GET', `/v1/flows/${flow.id}/versions`)).body)
    // 2 went (older than the newest two); 1 stays: a conversation runs on it.
    expect(versions.map((version) => version.number)).toEqual([4, 3, 1])
    const step = await svc.call('POST', `/v1/sessions/${start.body.sessionId}/continueChat`, { json: { message: 'Ada' } })
    expect(step.status, step.text).toBe(200)
  })
})
