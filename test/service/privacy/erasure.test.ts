import { createHmac } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PNG } from '../fixtures/upload-files'
import { useTestDatabase } from '../helpers/database'
import { type CapturedLogs, captureLogs } from '../helpers/logs'
import { dumpSchema } from '../helpers/table-dump'
import { fetchFile, filesUnder, uploadService } from '../uploads/upload-helpers'
import { expectedRemoval, publishedEmailFlow, removed, rowCounts, visitorConversation } from './privacy-helpers'

const db = useTestDatabase()
let svc: Awaited<ReturnType<typeof uploadService>>
let logs: CapturedLogs
beforeEach(async () => {
  logs = captureLogs()
  svc = await uploadService(db)
})
afterEach(async () => {
  logs.restore()
  await svc.close()
})

const ADA = 'Ada.Lovelace@example.org'
const erase = (body: Record<string, unknown>, token = svc.tokens.secret) => svc.call('POST', '/v1/privacy/erase', { token, json: body })
/** Every row of the schema, the stored files' paths and the process's log, in lower case. */
const everything = async () =>
  [await dumpSchema(svc.store.database, svc.schema), (await filesUnder(svc.dataDir)).join('\n'), logs.text()].join('\n').toLowerCase()

describe('erasing a visitor', () => {
  it('by an e-mail variable: the dry run counts the rows that then go, and no trace of them is left', async () => {
    const flowId = await publishedEmailFlow(svc)
    // A completion webhook: each completed conversation queues a delivery of its result.
    const hook = await svc.call('PUT', `/v1/flows/${flowId}/webhook`, {
      token: svc.tokens.secret,
      json: { url: 'https://hooks.example.invalid/results' },
    })
    expect(hook.status).toBe(200)
    // Two visits by Ada (her address typed in another case the second time), one by Grace.
    const ada1 = await visitorConversation(svc, flowId, ADA, 'ada-passport.png')
    const ada2 = await visitorConversation(svc, flowId, ADA.toLowerCase(), 'ada-invoice.png')
    const grace = await visitorConversation(svc, flowId, 'grace@example.org', 'grace-receipt.png')
    expect(await everything()).toContain('ada-passport.png')

    const dry = await erase({ variable: 'Email', value: 'ADA.LOVELACE@EXAMPLE.ORG', dryRun: true })
    expect(dry.status).toBe(200)
    expect(dry.body.dryRun).toBe(true)
    expect(dry.body.resultIds.sort()).toEqual([ada1, ada2].sort())
    expect(dry.body.counts).toMatchObject({ results: 2, sessions: 2, uploads: 2, logs: 2, outboxEmails: 2, webhookDeliveries: 2 })
    expect(dry.body.counts.answers).toBe(4)

    const before = await rowCounts(svc)
    const erased = await erase({ variable: 'Email', value: 'ADA.LOVELACE@EXAMPLE.ORG' })
    expect(erased.status).toBe(200)
    expect(erased.body).toEqual({ ...dry.body, dryRun: false })
    // The rows gone per table are the dry run's counts (and one audit line more).
    expect(removed(before, await rowCounts(svc))).toEqual(expectedRemoval(dry.body.counts))

    // Nothing of Ada is left: not in any table, not in the file storage, not in the log.
    const left = await everything()
    for (const trace of ['ada.lovelace', 'ada-passport', 'ada-invoice', ada1.toLowerCase(), ada2.toLowerCase()]) {
      expect(left).not.toContain(trace)
    }
    // Grace's conversation and file are untouched.
    expect(left).toContain('grace@example.org')
    expect(left).toContain('grace-receipt.png')
    expect((await svc.call('GET', `/v1/flows/${flowId}/results/${grace}`, { token: svc.tokens.secret })).status).toBe(200)

    // The audit says what, how many and by which token: never the address.
    const audit = await svc.call('GET', '/v1/privacy/audit', { token: svc.tokens.secret })
    expect(audit.body.audit).toEqual([
      expect.objectContaining({
        action: 'erase',
        selector: 'variable Email',
        counts: erased.body.counts,
        actor: expect.stringMatching(/^token /),
      }),
    ])
    expect(logs.lines.some((line) => line.msg === "erased a visitor's data" && (line.counts as any)?.results === 2)).toBe(true)
  })

  it('by result id: that conversation only, files included, counted the same by the dry run', async () => {
    const flowId = await publishedEmailFlow(svc)
    const ada = await visitorConversation(svc, flowId, ADA, 'ada-passport.png')
    const grace = await visitorConversation(svc, flowId, 'grace@example.org', 'grace-receipt.png')
    const dry = await erase({ resultId: grace, dryRun: true })
    expect(dry.body).toMatchObject({ dryRun: true, resultIds: [grace], counts: { results: 1, uploads: 1, answers: 2 } })
    const before = await rowCounts(svc)
    const erased = await erase({ resultId: grace })
    expect(erased.body.counts).toEqual(dry.body.counts)
    expect(removed(before, await rowCounts(svc))).toEqual(expectedRemoval(dry.body.counts))
    const left = await everything()
    expect(left).not.toContain('grace')
    expect(left).toContain('ada-passport.png')
    expect((await svc.call('GET', `/v1/flows/${flowId}/results/${ada}`, { token: svc.tokens.secret })).status).toBe(200)
    // A second erasure finds nothing and deletes nothing.
    expect((await erase({ resultId: grace })).body.counts.results).toBe(0)
  })

  it('by user id: every conversation of that signed-in user, in every flow, and nothing of anyone else', async () => {
    const flowId = await publishedEmailFlow(svc)
    const otherFlowId = await publishedEmailFlow(svc)
    const secret = (await svc.call('POST', '/v1/identity-secrets', { token: svc.tokens.secret })).body.secret as string
    const signedIn = (id: string) => ({ id, hash: createHmac('sha256', secret).update(id, 'utf8').digest('hex') })
    const first = await visitorConversation(svc, flowId, ADA, 'ada-passport.png', signedIn('user-ada-42'))
    const second = await visitorConversation(svc, otherFlowId, 'ada.second@example.org', 'ada-second.png', signedIn('user-ada-42'))
    const grace = await visitorConversation(svc, flowId, 'grace@example.org', 'grace-receipt.png', signedIn('user-grace-7'))
    // The same id in another case is another user.
    const other = await visitorConversation(svc, flowId, 'someone@example.org', 'someone.png', signedIn('USER-ADA-42'))

    const dry = await erase({ userId: 'user-ada-42', dryRun: true })
    expect(dry.status, dry.text).toBe(200)
    expect([...dry.body.resultIds].sort()).toEqual([first, second].sort())
    expect(dry.body.counts).toMatchObject({ results: 2, uploads: 2, answers: 4 })
    const exported = await svc.call('POST', '/v1/privacy/access', { token: svc.tokens.secret, json: { userId: 'user-ada-42' } })
    expect(exported.body.results.map((result: { id: string }) => result.id).sort()).toEqual([first, second].sort())
    // Another workspace's token finds nothing of them.
    expect((await erase({ userId: 'user-ada-42' }, svc.tokens.otherSecret)).body.counts.results).toBe(0)

    const before = await rowCounts(svc)
    const erased = await erase({ userId: 'user-ada-42' })
    expect(erased.body.counts).toEqual(dry.body.counts)
    expect(removed(before, await rowCounts(svc))).toEqual(expectedRemoval(dry.body.counts))
    const left = await everything()
    for (const trace of ['ada.lovelace@example.org', 'ada-passport.png', 'ada.second@example.org', 'ada-second.png'])
      expect(left).not.toContain(trace)
    expect(left).toContain('grace-receipt.png')
    for (const kept of [grace, other]) {
      expect((await svc.call('GET', `/v1/flows/${flowId}/results/${kept}`, { token: svc.tokens.secret })).status).toBe(200)
    }
    const audit = (await svc.call('GET', '/v1/privacy/audit', { token: svc.tokens.secret })).body.audit
    expect(audit.map((line: { action: string; selector: string }) => [line.action, line.selector])).toContainEqual(['erase', 'user id'])
    expect(JSON.stringify(audit)).not.toContain('user-ada-42')
  })

  it("never reaches another workspace's visitors: their selector finds nothing and erases nothing", async () => {
    const flowId = await publishedEmailFlow(svc)
    const ada = await visitorConversation(svc, flowId, ADA, 'ada-passport.png')
    for (const body of [{ resultId: ada }, { variable: 'Email', value: ADA }]) {
      const other = await erase(body, svc.tokens.otherSecret)
      expect(other.status).toBe(200)
      expect(other.body).toMatchObject({ resultIds: [], counts: { results: 0, uploads: 0 } })
      const exported = await svc.call('POST', '/v1/privacy/access', { token: svc.tokens.otherSecret, json: body })
      expect(exported.body.results).toEqual([])
    }
    expect(await everything()).toContain('ada-passport.png')
    expect((await svc.call('GET', '/v1/privacy/audit', { token: svc.tokens.secret })).body.audit).toEqual([])
    // Publishable tokens and no token are refused.
    expect((await erase({ resultId: ada }, svc.tokens.publishable)).status).toBe(403)
    expect((await svc.call('POST', '/v1/privacy/erase', { json: { resultId: ada } })).status).toBe(401)
  })

  it('refuses selectors that name no visitor or several ways at once', async () => {
    for (const body of [
      {},
      { variable: 'Email' },
      { value: ADA },
      { resultId: 'r', variable: 'Email', value: ADA },
      { resultId: 'r', extra: 1 },
      { userId: '' },
      { userId: 'ada', resultId: 'r' },
      { userId: 'ada', variable: 'Email', value: ADA },
      { userId: 'x'.repeat(257) },
    ]) {
      const answer = await erase(body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body.error.code).toBe('invalid_body')
    }
  })
})

describe("exporting a visitor's data (an access request)", () => {
  it('holds every row the service keeps about them, by result, and their files', async () => {
    const flowId = await publishedEmailFlow(svc)
    const ada1 = await visitorConversation(svc, flowId, ADA, 'ada-passport.png')
    const ada2 = await visitorConversation(svc, flowId, ADA, 'ada-invoice.png')
    await visitorConversation(svc, flowId, 'grace@example.org', 'grace-receipt.png')
    const exported = await svc.call('POST', '/v1/privacy/access', { token: svc.tokens.secret, json: { variable: 'email', value: ADA } })
    expect(exported.status).toBe(200)
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment/)
    const { results } = exported.body
    expect(results.map((r: any) => r.id).sort()).toEqual([ada1, ada2].sort())
    const counts = (await erase({ variable: 'Email', value: ADA, dryRun: true })).body.counts
    const sum = (pick: (r: any) => unknown[]) => results.reduce((n: number, r: any) => n + pick(r).length, 0)
    expect(sum((r) => r.answers)).toBe(counts.answers)
    expect(sum((r) => r.sessions)).toBe(counts.sessions)
    expect(sum((r) => r.logs)).toBe(counts.logs)
    expect(sum((r) => r.files)).toBe(counts.uploads)
    expect(sum((r) => r.emails)).toBe(counts.outboxEmails)
    const first = results.find((r: any) => r.id === ada1)
    expect(first.flow).toEqual({ id: flowId, name: 'Files' })
    expect(first.variables).toContainEqual({ id: 'vName', name: 'Email', value: ADA })
    expect(first.answers.map((a: any) => a.value)).toContain(ADA)
    expect(first.logs[0].description).toBe(`Sent a receipt to ${ADA}`)
    expect(first.emails[0].message.to).toEqual([ADA])
    expect(first.files[0]).toMatchObject({ name: 'ada-passport.png', type: 'image/png', size: PNG.length })
    // The export's link downloads the file.
    const file = await fetchFile(svc, first.files[0].url)
    expect(file.status).toBe(200)
    expect(file.bytes.equals(PNG)).toBe(true)
    expect(JSON.stringify(results)).not.toContain('grace')
    const audit = (await svc.call('GET', '/v1/privacy/audit', { token: svc.tokens.secret })).body.audit
    expect(audit.map((line: any) => line.action)).toEqual(['access'])
    expect(JSON.stringify(audit).toLowerCase()).not.toContain('lovelace')
  })
})
