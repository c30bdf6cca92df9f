import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPORT_BATCH } from '../../../src/service/results/results-export'
import { useTestDatabase } from '../helpers/database'
import { importOverHttp } from '../helpers/flows'
import { resultsPath, surveyFlow } from '../helpers/results'
import { createTestService, type TestService } from '../helpers/service'

/**
 * An export of 100,000 results streams in constant memory: the heap still in use (measured after
 * a collection, every few chunks) stays a small fraction of the file, where an export built in
 * memory would hold at least the whole file. Prints the figures.
 */
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const RESULTS = 100_000
const db = useTestDatabase()
let svc: TestService
let flowId: string

beforeAll(async () => {
  svc = await createTestService(db)
  flowId = (await importOverHttp(svc, surveyFlow())).id
  const t = svc.store.tables
  // Two answers and a variable per result, a second apart, written by the database itself.
  await svc.store.database.query(
    `INSERT INTO ${t.results} (id, flow_id, variables, is_completed, created_at, updated_at)
     SELECT 'r' || lpad(n::text, 6, '0'), $1, jsonb_build_object('v-source', 'campaign-' || (n % 10)), n % 3 = 0,
            $2::timestamptz + n * interval '1 second', $2::timestamptz + n * interval '1 second'
     FROM generate_series(1, ${RESULTS}) AS n`,
    [flowId, '2026-01-01T00:00:00.000Z'],
  )
  await svc.store.database.query(
    `INSERT INTO ${t.answers} (result_id, session_id, block_id, group_id, variable_id, value, created_at)
     SELECT 'r' || lpad(n::text, 6, '0'), 's' || n, x.block_id, x.group_id, x.variable_id,
            CASE x.block_id WHEN 'b-name' THEN 'Visitor ' || n || ' ' || repeat('ø', 120) ELSE 'visitor' || n || '@example.com' END,
            $1::timestamptz + n * interval '1 second'
     FROM generate_series(1, ${RESULTS}) AS n,
          (VALUES ('b-name', 'g-name', 'v-name'), ('b-email', 'g-contact', NULL)) AS x(block_id, group_id, variable_id)`,
    ['2026-01-01T00:00:00.000Z'],
  )
}, 300_000)
afterAll(() => svc?.close())

describe('exporting 100,000 results', () => {
  for (const format of ['csv', 'jsonl'] as const) {
    it(`streams ${format} in constant memory`, async () => {
      gc()
      const baseline = process.memoryUsage().heapUsed
      const started = performance.now()
      const response = await svc.app.request(resultsPath(flowId, { format }, '/export'), {
        headers: { authorization: `Bearer ${svc.tokens.secret}` },
      })
      expect(response.status).toBe(200)
      const reader = response.body!.getReader()
      let bytes = 0
      let lines = 0
      let chunks = 0
      let peak = 0
      let first = ''
      let last = ''
      const decoder = new TextDecoder()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        bytes += value.byteLength
        for (const byte of value) if (byte === 0x0a) lines++
        const text = decoder.decode(value, { stream: true })
        if (chunks === 1) first = text.slice(0, 200)
        last = text
        if (++chunks % 10 === 0) {
          gc()
          peak = Math.max(peak, process.memoryUsage().heapUsed - baseline)
        }
      }
      const seconds = (performance.now() - started) / 1000
      const mb = (n: number) => (n / 1024 / 1024).toFixed(1)
      console.log(
        `[export ${format}] ${RESULTS} results, ${mb(bytes)} MiB in ${chunks} chunks (${EXPORT_BATCH} results each), ` +
          `${seconds.toFixed(1)} s; heap in use at most ${mb(peak)} MiB above the start; RSS ${mb(process.memoryUsage().rss)} MiB`,
      )
      expect(lines).toBe(format === 'csv' ? RESULTS + 1 : RESULTS)
      // Newest first, every result once.
      expect(first).toMatch(format === 'csv' ? /^r100000,/ : /^\{"id":"r100000"/)
      expect(last).toMatch(format === 'csv' ? /\r\nr000001,[^\r\n]*\r\n$/ : /\n\{"id":"r000001"[^\n]*\n$/)
      expect(bytes).toBeGreaterThan(20 * 1024 * 1024)
      // An export built in memory would hold the whole file at least.
      expect(peak).toBeLessThan(bytes / 8)
    }, 300_000)
  }
})
