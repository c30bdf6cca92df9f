import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG } from '../../../src/service/config'
import { RETENTION_JOB, RetentionJob } from '../../../src/service/privacy/retention-job'
import { useTestDatabase } from '../helpers/database'
import { startS3TestServer } from '../helpers/s3-test-server'
import { dumpSchema } from '../helpers/table-dump'
import { filesUnder, uploadService } from '../uploads/upload-helpers'
import { publishedEmailFlow, visitorConversation } from './privacy-helpers'

const db = useTestDatabase()
const DAY = 86_400_000
let s3: Awaited<ReturnType<typeof startS3TestServer>>
beforeAll(async () => {
  s3 = await startS3TestServer()
})
afterAll(() => s3.close())

type Svc = Awaited<ReturnType<typeof uploadService>>
const storages: Array<[string, (dbConfig: typeof db) => Promise<Svc>]> = [
  ['local disk', (d) => uploadService(d)],
  ['an S3-compatible server (s3rver)', (d) => uploadService(d, { uploads: { ...DEFAULT_CONFIG.uploads, s3: s3.settings } })],
]

/** Whether the upload store still has the file stored under `key`. */
async function stored(svc: Svc, key: string): Promise<boolean> {
  const body = await svc.integrations.files.storage.open(key)
  body?.destroy()
  return body !== undefined
}

const keysOf = async (svc: Svc, resultId: string) =>
  (
    await svc.store.database.query<{ storage_key: string }>(`SELECT storage_key FROM ${svc.store.tables.uploads} WHERE result_id = $1`, [
      resultId,
    ])
  ).map((row) => row.storage_key)

describe.each(storages)('the retention job with files on %s', (_name, make) => {
  it('deletes exactly the data older than the setting, files included, with two jobs running at once', async () => {
    const svc = await make(db)
    try {
      const flowId = await publishedEmailFlow(svc)
      // Three old visits 40 days ago, then two recent ones; one old visit comes back recently.
      const old = [
        await visitorConversation(svc, flowId, 'old1@example.org', 'old1.png'),
        await visitorConversation(svc, flowId, 'old2@example.org', 'old2.png'),
        await visitorConversation(svc, flowId, 'old3@example.org', 'old3.png'),
      ]
      const oldKeys = (await Promise.all(old.map((id) => keysOf(svc, id)))).flat()
      svc.clock.advance(38 * DAY)
      const fresh = [
        await visitorConversation(svc, flowId, 'new1@example.org', 'new1.png'),
        await visitorConversation(svc, flowId, 'new2@example.org', 'new2.png'),
      ]
      const freshKeys = (await Promise.all(fresh.map((id) => keysOf(svc, id)))).flat()
      svc.clock.advance(2 * DAY)
      // Another workspace keeps everything (no setting): its old data stays.
      const set = await svc.call('PUT', '/v1/privacy/retention', { token: svc.tokens.secret, json: { retentionDays: 30 } })
      expect(set.status).toBe(200)
      expect(set.body.retentionDays).toBe(30)
      expect((await svc.call('GET', '/v1/privacy/retention', { token: svc.tokens.otherSecret })).body.retentionDays).toBeNull()

      // Two processes' jobs (batches of one result) start together: one runs, the other finds it held.
      const jobs = [0, 1].map(() => new RetentionJob({ store: svc.store, files: svc.integrations.files, now: svc.clock.now, batch: 1 }))
      const runs = await Promise.all(jobs.map((job) => job.runOnce()))
      const done = runs.filter((run) => run !== undefined)
      expect(done).toHaveLength(1)
      expect(done[0]!.deleted).toMatchObject({ results: 3, uploads: 3, files: 3, outboxEmails: 3, logs: 3 })

      const results = await svc.store.database.query<{ id: string }>(`SELECT id FROM ${svc.store.tables.results}`)
      expect(results.map((r) => r.id).sort()).toEqual([...fresh].sort())
      for (const key of oldKeys) expect(await stored(svc, key)).toBe(false)
      for (const key of freshKeys) expect(await stored(svc, key)).toBe(true)
      const dump = await dumpSchema(svc.store.database, svc.schema)
      expect(dump).not.toMatch(/old\d@example\.org|old\d\.png/)
      expect(dump).toContain('new1@example.org')
      expect(dump).toContain('new2.png')
      if (!svc.config.uploads.s3) expect((await filesUnder(svc.dataDir)).filter((path) => path.includes('/uploads/'))).toHaveLength(2)

      // One audit line with the counts; the setting's answer says how the last run went.
      const audit = (await svc.call('GET', '/v1/privacy/audit', { token: svc.tokens.secret })).body.audit
      expect(audit).toEqual([expect.objectContaining({ action: 'retention', actor: 'retention job', selector: null })])
      expect(audit[0].counts).toMatchObject({ results: 3, files: 3 })
      const setting = (await svc.call('GET', '/v1/privacy/retention', { token: svc.tokens.secret })).body
      expect(setting.lastRun).toEqual({ startedAt: svc.clock.now().toISOString(), finishedAt: svc.clock.now().toISOString() })

      // Run again: nothing more is old enough.
      expect((await jobs[1]!.runOnce())!.deleted.results).toBe(0)
    } finally {
      await svc.close()
    }
  })
})

describe('the retention job', () => {
  it('carries on a run whose process stopped, once its lease has expired', async () => {
    const svc = await uploadService(db)
    try {
      const flowId = await publishedEmailFlow(svc)
      await visitorConversation(svc, flowId, 'old@example.org', 'old.png')
      svc.clock.advance(10 * DAY)
      await svc.store.privacy.setRetentionDays('demo', 5)
      // A process took the job, deleted two results, and died holding a lease that has since expired.
      expect(await svc.store.jobLeases.acquire(RETENTION_JOB, 'dead-process', 1)).toEqual({})
      const startedAt = new Date(svc.clock.now().getTime() - 60_000).toISOString()
      await svc.store.jobLeases.renew(RETENTION_JOB, 'dead-process', 1, { startedAt, deleted: { results: 2, files: 2 } })
      await new Promise((resolve) => setTimeout(resolve, 20))
      const run = await new RetentionJob({ store: svc.store, files: svc.integrations.files, now: svc.clock.now }).runOnce()
      expect(run).toMatchObject({ startedAt, deleted: { results: 3, files: 3 } })
      expect(await svc.store.database.query(`SELECT id FROM ${svc.store.tables.results}`)).toEqual([])
    } finally {
      await svc.close()
    }
  })

  it('leaves a workspace without a setting alone, and refuses settings out of range', async () => {
    const svc = await uploadService(db)
    try {
      const flowId = await publishedEmailFlow(svc)
      await visitorConversation(svc, flowId, 'kept@example.org', 'kept.png')
      svc.clock.advance(3_000 * DAY)
      const run = await new RetentionJob({ store: svc.store, files: svc.integrations.files, now: svc.clock.now }).runOnce()
      expect(run!.deleted.results).toBe(0)
      expect(await svc.store.database.query(`SELECT id FROM ${svc.store.tables.results}`)).toHaveLength(1)
      for (const retentionDays of [0, -1, 1.5, 10_001, '30']) {
        const answer = await svc.call('PUT', '/v1/privacy/retention', { token: svc.tokens.secret, json: { retentionDays } })
        expect(answer.status, String(retentionDays)).toBe(400)
      }
      const off = await svc.call('PUT', '/v1/privacy/retention', { token: svc.tokens.secret, json: { retentionDays: null } })
      expect(off.body.retentionDays).toBeNull()
    } finally {
      await svc.close()
    }
  })
})
