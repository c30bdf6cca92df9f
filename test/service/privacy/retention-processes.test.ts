import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { uploadPath } from '../../../src/protocol/uploads'
import { newToken } from '../../../src/service/ids'
import { openPgDatabase } from '../../../src/service/store/pg-database'
import { createStore, type Store } from '../../../src/service/store/store'
import { S3Storage } from '../../../src/service/uploads/s3-storage'
import { PNG } from '../fixtures/upload-files'
import { databaseUrl, dropSchema, freshSchema } from '../helpers/database'
import { fileInputFlow } from '../helpers/flows'
import { parseMetrics, total } from '../helpers/metrics'
import { startS3TestServer } from '../helpers/s3-test-server'
import { type ServiceProcess, startServiceProcess } from '../helpers/service-process'

/**
 * The retention job as operators run it: two service processes on one PostgreSQL server and one
 * S3-compatible store, each offering to run the job every second. Needs DATABASE_URL.
 */
const schema = freshSchema()
const secret = newToken('secret')
const METRICS_TOKEN = 'metrics-token-of-the-retention-processes'
const processes: ServiceProcess[] = []
let s3: Awaited<ReturnType<typeof startS3TestServer>> | undefined
let store: Store | undefined

const api = async (url: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

/** A visitor uploads a file and gives their address; resolves with the result's id. */
async function visit(url: string, flowId: string, email: string): Promise<string> {
  const started = await api(url, 'POST', `/v1/flows/${flowId}/startChat`, {})
  const { sessionId, resultId } = started.body
  const uploaded = await fetch(`${url}${uploadPath(sessionId)}?name=${email}.png`, {
    method: 'POST',
    headers: { 'content-type': 'image/png' },
    body: new Uint8Array(PNG),
  })
  const file = (await uploaded.json()) as { url: string }
  await api(url, 'POST', `/v1/sessions/${sessionId}/continueChat`, {
    message: { type: 'text', text: file.url, attachedFileUrls: [file.url] },
  })
  await api(url, 'POST', `/v1/sessions/${sessionId}/continueChat`, { message: email })
  return resultId
}

describe.skipIf(!databaseUrl)('the retention job on two processes of one PostgreSQL server', () => {
  beforeAll(async () => {
    s3 = await startS3TestServer()
    const env = {
      DATABASE_URL: databaseUrl!,
      DATABASE_SCHEMA: schema,
      FLOW_SECRET_TOKEN: secret,
      CREDENTIALS_KEY: randomBytes(32).toString('hex'),
      METRICS_TOKEN,
      RETENTION_INTERVAL_SECONDS: '1',
      S3_BUCKET: s3.settings.bucket,
      S3_ENDPOINT: s3.settings.endpoint!,
      S3_ACCESS_KEY_ID: s3.settings.accessKeyId!,
      S3_SECRET_ACCESS_KEY: s3.settings.secretAccessKey!,
      S3_PREFIX: s3.settings.prefix ?? '',
    }
    processes.push(await startServiceProcess(env))
    processes.push(await startServiceProcess(env))
    store = await createStore(openPgDatabase(databaseUrl!), { schema })
  }, 60_000)
  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()))
    await store?.close()
    await s3?.close()
    const pg = openPgDatabase(databaseUrl!)
    await dropSchema(pg, schema)
    await pg.close()
  })

  it('deletes the old results and their files once, and nothing newer', async () => {
    const [a, b] = processes.map((process) => process.url) as [string, string]
    const flow = (await api(a, 'POST', '/v1/flows/import', { workspaceId: 'demo', flow: fileInputFlow() })).body.flow
    expect((await api(a, 'POST', `/v1/flows/${flow.id}/publish`)).status).toBe(200)
    const old = [await visit(a, flow.id, 'old1'), await visit(b, flow.id, 'old2'), await visit(a, flow.id, 'old3')]
    const fresh = [await visit(b, flow.id, 'new1'), await visit(a, flow.id, 'new2')]
    // The old visits happened 40 days ago.
    await store!.database.query(
      `UPDATE ${store!.tables.results} SET created_at = created_at - interval '40 days', updated_at = updated_at - interval '40 days'
       WHERE id = ANY($1::text[])`,
      [old],
    )
    const keys = async (ids: string[]) =>
      (
        await store!.database.query<{ storage_key: string }>(
          `SELECT storage_key FROM ${store!.tables.uploads} WHERE result_id = ANY($1::text[])`,
          [ids],
        )
      ).map((row) => row.storage_key)
    const [oldKeys, freshKeys] = [await keys(old), await keys(fresh)]
    expect(oldKeys).toHaveLength(3)

    expect((await api(b, 'PUT', '/v1/privacy/retention', { retentionDays: 30 })).status).toBe(200)
    const left = async () =>
      (await store!.database.query<{ id: string }>(`SELECT id FROM ${store!.tables.results}`)).map((r) => r.id).sort()
    for (let tries = 0; (await left()).length > fresh.length && tries < 300; tries++) await new Promise((r) => setTimeout(r, 100))
    expect(await left()).toEqual([...fresh].sort())

    const storage = new S3Storage(s3!.settings)
    const stored = async (key: string) => {
      const body = await storage.open(key)
      body?.destroy()
      return body !== undefined
    }
    for (const key of oldKeys) expect(await stored(key)).toBe(false)
    for (const key of freshKeys) expect(await stored(key)).toBe(true)

    // Each old result was deleted once, by whichever process held the job: the processes'
    // figures and the audit add up to three, not six.
    await new Promise((r) => setTimeout(r, 1_500))
    let deleted = 0
    let runs = 0
    for (const url of [a, b]) {
      const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
      deleted += total(parseMetrics(text), 'flow_retention_deleted_total', { kind: 'results' })
      runs += total(parseMetrics(text), 'flow_retention_runs_total', { outcome: 'done' })
    }
    expect(deleted).toBe(3)
    expect(runs).toBeGreaterThan(1)
    const audit = (await api(a, 'GET', '/v1/privacy/audit')).body.audit
    expect(audit.filter((line: any) => line.action === 'retention').reduce((n: number, line: any) => n + line.counts.results, 0)).toBe(3)
  }, 60_000)
})
