import { afterEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import { purgeExpired, SESSION_PURGE_GRACE_MS } from '../../../src/service/chat/session-purge'
import { DEFAULT_CONFIG } from '../../../src/service/config'
import type { UploadQuotas } from '../../../src/service/uploads/upload-quotas'
import { UPLOAD_FLOODS } from '../fixtures/upload-floods'
import { useTestDatabase } from '../helpers/database'
import type { TestService } from '../helpers/service'
import { fetchFile, filesUnder, sessionAtFileInput, upload, uploadService } from './upload-helpers'

/**
 * Quotas on what visitors store: per conversation, per client network and per workspace for files
 * not yet sent, and the disk's reserve; unsent files go early. Each flood is data (upload-floods.ts).
 */
const db = useTestDatabase()
let svc: TestService & { dataDir: string }
afterEach(() => svc.close())

const withQuotas = async (quotas: Partial<UploadQuotas>) => {
  svc = await uploadService(db, { uploads: { ...DEFAULT_CONFIG.uploads, quotas: { ...DEFAULT_CONFIG.uploads.quotas, ...quotas } } })
  return svc
}
const answer = (sessionId: string, message: unknown) =>
  svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: message === undefined ? {} : { message } })
const stored = async () => ({
  rows: (await svc.store.database.query(`SELECT id FROM ${svc.store.tables.uploads}`)).length,
  files: (await filesUnder(svc.dataDir)).length,
})
const purge = () =>
  purgeExpired(svc.store, svc.clock.now(), { graceMs: SESSION_PURGE_GRACE_MS, idleBucketMs: 3_600_000, batch: 10 }, svc.integrations.files)

describe('upload quotas', () => {
  it.each(UPLOAD_FLOODS)('$tries: $statuses, the refused leaving nothing behind', async ({ quotas, uploads, statuses, code }) => {
    await withQuotas(quotas)
    const conversations = new Map<number, string>()
    const answers = []
    for (const { from, conversation, bytes, announced } of uploads) {
      if (!conversations.has(conversation))
        conversations.set(conversation, (await sessionAtFileInput(svc, { isMultipleAllowed: true })).sessionId)
      const body = Buffer.alloc(bytes, 0x41)
      answers.push(
        await upload(svc, conversations.get(conversation)!, body, {
          name: 'notes.txt',
          type: 'text/plain',
          headers: { 'x-forwarded-for': from },
          ...(announced ? { length: bytes } : { stream: true }),
        }),
      )
    }
    expect(answers.map((res) => res.status)).toEqual(statuses)
    const refused = answers.at(-1)!
    expect(errorBodySchema.parse(refused.body).error.code).toBe(code)
    if (refused.status === 429) expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    const accepted = statuses.filter((status) => status === 201).length
    expect(await stored()).toEqual({ rows: accepted, files: accepted })
  })

  it('counts a file sent with its answer no more against its client and workspace', async () => {
    await withQuotas({ clientUnsentBytes: 2_000, workspaceUnsentBytes: 2_000 })
    const from = { 'x-forwarded-for': '203.0.113.60' }
    const first = await sessionAtFileInput(svc)
    const { url } = (await upload(svc, first.sessionId, Buffer.alloc(1_500, 0x41), { name: 'a.txt', type: 'text/plain', headers: from }))
      .body
    const second = await sessionAtFileInput(svc)
    const over = await upload(svc, second.sessionId, Buffer.alloc(1_000, 0x41), { name: 'b.txt', type: 'text/plain', headers: from })
    expect(over.status).toBe(429)
    expect((await answer(first.sessionId, url)).status).toBe(200)
    const now = await upload(svc, second.sessionId, Buffer.alloc(1_000, 0x41), { name: 'b.txt', type: 'text/plain', headers: from })
    expect(now.status).toBe(201)
  })

  it('deletes files not sent within UPLOAD_UNSENT_SECONDS while their conversation goes on; files sent stay', async () => {
    await withQuotas({ unsentSeconds: 600 })
    const sent = await sessionAtFileInput(svc)
    const sentUrl = (await upload(svc, sent.sessionId, Buffer.from('kept'), { name: 'kept.txt', type: 'text/plain' })).body.url
    await answer(sent.sessionId, sentUrl)
    const waiting = await sessionAtFileInput(svc)
    const waitingUrl = (await upload(svc, waiting.sessionId, Buffer.from('gone'), { name: 'gone.txt', type: 'text/plain' })).body.url

    svc.clock.advance(599_000)
    expect((await purge()).files).toBe(0)
    svc.clock.advance(2_000)
    expect(await purge()).toMatchObject({ sessions: 0, files: 1 })
    expect((await fetchFile(svc, waitingUrl)).status).toBe(404)
    expect((await fetchFile(svc, sentUrl)).status).toBe(200)
    expect(await stored()).toEqual({ rows: 1, files: 1 })
    // Sent now, too late: the question asks again.
    const late = await answer(waiting.sessionId, waitingUrl)
    expect(late.body.input).toMatchObject({ type: 'file input' })
  })
})

describe('readiness', () => {
  it('says uploads are refused when the disk has no room beyond its reserve, and stays in service', async () => {
    await withQuotas({ reserveBytes: 2 ** 50 })
    for (const path of ['/v1/health/ready', '/v1/health']) {
      const res = await svc.call('GET', path)
      expect([path, res.status, res.body]).toEqual([
        path,
        200,
        { status: 'degraded', checks: { database: 'ok', uploads: 'refusing files: no room beyond the disk reserve' } },
      ])
    }
  })
})
