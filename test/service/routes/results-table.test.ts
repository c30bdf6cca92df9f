import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import { deleteResultsResponseSchema, resultDetailSchema, resultsPageSchema } from '../../../src/protocol/results'
import { HOSTILE_RESULT_QUERIES } from '../fixtures/hostile-result-queries'
import { useTestDatabase } from '../helpers/database'
import { importOverHttp, publishOverHttp } from '../helpers/flows'
import { collectResult, publishedSurvey as publishSurvey, resultsPath, surveyFlow } from '../helpers/results'
import { type CallResult, createTestService, issueToken, OTHER_WORKSPACE, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const publishedSurvey = (overrides: Record<string, unknown> = {}) => publishSurvey(svc, overrides)
const importAndPublish = async (flow: Record<string, unknown>) => {
  const imported = await importOverHttp(svc, flow)
  await publishOverHttp(svc, imported.id)
  return imported
}

/** A visitor a minute after the one before, so results are apart in time. */
async function visit(flowId: string, answers: string[], source?: string): Promise<string> {
  svc.clock.advance(60_000)
  return collectResult(svc, flowId, answers, source ? { Source: source } : undefined)
}

const get = (path: string, token = svc.tokens.secret) => svc.call('GET', path, { token })
const page = async (path: string) => {
  const res = await get(path)
  expect(res.status, res.text).toBe(200)
  return resultsPageSchema.parse(res.body)
}

function expectError(res: CallResult, status: number, code: string) {
  expect(res.status, res.text).toBe(status)
  expect(errorBodySchema.parse(res.body).error.code).toBe(code)
}

describe('GET /v1/flows/{flowId}/results', () => {
  it('lists results newest first, one column per input block and per variable, named as the flow names them', async () => {
    const flow = await publishedSurvey()
    const ada = await visit(flow.id, ['Ada', 'ada@example.com', '36'], 'newsletter')
    const bob = await visit(flow.id, ['Bob'])

    const { columns, results, nextCursor } = await page(resultsPath(flow.id))
    expect(columns.map(({ id, name, kind }) => ({ id, name, kind }))).toEqual([
      { id: 'b-name', name: 'Name', kind: 'input' },
      { id: 'b-email', name: 'Contact', kind: 'input' },
      { id: 'b-age', name: 'Age', kind: 'input' },
      { id: 'v-source', name: 'Source', kind: 'variable' },
      { id: 'v-notes', name: 'Notes', kind: 'variable' },
    ])
    expect(columns[1]).toMatchObject({ blockType: 'email input', groupId: 'g-contact', hidden: false })
    expect(columns[0]).toMatchObject({ variableId: 'v-name' })
    expect(results.map((row) => row.id)).toEqual([bob, ada])
    expect(results[0]).toMatchObject({ isCompleted: false, cells: { 'b-name': 'Bob' } })
    expect(results[1]).toMatchObject({
      isCompleted: true,
      cells: { 'b-name': 'Ada', 'b-email': 'ada@example.com', 'b-age': '36', 'v-source': 'newsletter' },
    })
    expect(results[1]!.cells).not.toHaveProperty('v-notes')
    expect(nextCursor).toBeNull()
  })

  it('pages with a cursor, each result once, while new results come in', async () => {
    const flow = await publishedSurvey()
    const older: string[] = []
    for (let i = 0; i < 7; i++) older.unshift(await visit(flow.id, [`Visitor ${i}`]))

    const seen: string[] = []
    let cursor: string | null = null
    do {
      const path = resultsPath(flow.id, { limit: '3', ...(cursor ? { cursor } : {}) })
      const { results, nextCursor }: { results: Array<{ id: string }>; nextCursor: string | null } = await page(path)
      seen.push(...results.map((row) => row.id))
      // Visitors keep answering between two pages: they are newer than every page already read.
      await visit(flow.id, ['Latecomer'])
      cursor = nextCursor
    } while (cursor)
    expect(seen).toEqual(older)

    const first = await page(resultsPath(flow.id, { limit: '3' }))
    expect(first.results.map((row) => row.cells['b-name'])).toEqual(['Latecomer', 'Latecomer', 'Latecomer'])
  })

  it('filters by completion, by date and by text in the answers', async () => {
    const flow = await publishedSurvey()
    const ada = await visit(flow.id, ['Ada', 'ada@example.com', '36'])
    svc.clock.advance(1_000)
    const middle = svc.clock.now().toISOString()
    const percent = await visit(flow.id, ['50% off_sale'])
    const bob = await visit(flow.id, ['Bob', 'BOB@example.org', '7'])

    const ids = async (query: Record<string, string>) => (await page(resultsPath(flow.id, query))).results.map((row) => row.id)
    expect(await ids({ completed: 'true' })).toEqual([bob, ada])
    expect(await ids({ completed: 'false' })).toEqual([percent])
    expect(await ids({ from: middle })).toEqual([bob, percent])
    expect(await ids({ to: middle })).toEqual([ada])
    expect(await ids({ to: '2026-03-01' })).toEqual([])
    expect(await ids({ from: '2026-03-01', to: '2026-03-02T00:00:00+01:00' })).toEqual([bob, percent, ada])
    expect(await ids({ q: 'example' })).toEqual([bob, ada])
    expect(await ids({ q: 'bob@EXAMPLE' })).toEqual([bob])
    expect(await ids({ q: '36' })).toEqual([ada])
    // Wildcards of the database's pattern language are text like any other.
    expect(await ids({ q: '%' })).toEqual([percent])
    expect(await ids({ q: 'o_f' })).toEqual([])
    expect(await ids({ q: 'f_s' })).toEqual([percent])
    expect(await ids({ q: 'f_s', completed: 'true' })).toEqual([])
    expect(await ids({ q: 'example', completed: 'true', from: middle })).toEqual([bob])
  })

  it('refuses a cursor changed, made up, of another flow, for other filters or a day old, with the error body', async () => {
    const flow = await publishedSurvey()
    const other = await publishedSurvey()
    for (let i = 0; i < 3; i++) {
      await visit(flow.id, [`A${i}`])
      await visit(other.id, [`B${i}`])
    }
    const { nextCursor } = await page(resultsPath(flow.id, { limit: '1', completed: 'false' }))
    const cursor = nextCursor!
    const otherCursor = (await page(resultsPath(other.id, { limit: '1', completed: 'false' }))).nextCursor!
    expect((await get(resultsPath(flow.id, { limit: '1', completed: 'false', cursor }))).status).toBe(200)

    const flipped = cursor.replace(/^(.)/, (c) => (c === 'A' ? 'B' : 'A'))
    const [payload, mac] = cursor.split('.')
    const forgedPayload = Buffer.from(
      JSON.stringify(JSON.parse(Buffer.from(payload!, 'base64url').toString()).map((v: unknown, i: number) => (i === 4 ? 'x' : v))),
    ).toString('base64url')
    const refusals: Array<[string, Record<string, string>, string, RegExp]> = [
      ['changed', { cursor: flipped, completed: 'false' }, flow.id, /not made by this service/],
      [
        'another position, the old signature',
        { cursor: `${forgedPayload}.${mac}`, completed: 'false' },
        flow.id,
        /not made by this service/,
      ],
      ["another flow's", { cursor: otherCursor, completed: 'false' }, flow.id, /another flow/],
      ['other filters', { cursor, completed: 'true' }, flow.id, /other filters/],
      ['no filters', { cursor }, flow.id, /other filters/],
    ]
    for (const [what, query, flowId, message] of refusals) {
      const res = await get(resultsPath(flowId, { limit: '1', ...query }))
      expectError(res, 400, 'invalid_query')
      expect(res.body.error.message, what).toMatch(message)
      expect(res.body.error.details).toEqual([{ path: 'cursor', message: res.body.error.message }])
    }
    svc.clock.advance(25 * 60 * 60 * 1000)
    const stale = await get(resultsPath(flow.id, { limit: '1', completed: 'false', cursor }))
    expectError(stale, 400, 'invalid_query')
    expect(stale.body.error.message).toMatch(/expired/)
  })

  it.each(HOSTILE_RESULT_QUERIES)('answers $tries with 400 and the error body', async ({ query, path }) => {
    const flow = await publishedSurvey()
    await visit(flow.id, ['Ada'])
    const res = await get(resultsPath(flow.id, query))
    expectError(res, 400, 'invalid_query')
    expect(res.body.error.details[0].path).toBe(path)
    expect(res.text).not.toMatch(/at .*\.ts:\d+/)
  })

  it('keeps a column for a block answered in an older version, and honours the table preferences', async () => {
    const flow = await publishedSurvey()
    const ada = await visit(flow.id, ['Ada', 'ada@example.com', '36'])
    // The e-mail question goes: the name leads straight to the age.
    const edited = surveyFlow()
    edited.groups = edited.groups.filter((group: { id: string }) => group.id !== 'g-contact')
    edited.edges = edited.edges
      .filter((edge: { id: string }) => edge.id !== 'e2')
      .map((edge: any) => (edge.id === 'e1' ? { ...edge, to: { groupId: 'g-age' } } : edge))
    edited.variables[0].name = 'First name'
    edited.resultsTablePreferences = {
      columnsOrder: ['v-source', 'b-age', 'unknown-column'],
      columnsVisibility: { 'b-name': false, 'v-notes': true },
      columnsWidth: { 'b-age': 120, 'b-name': 'wide', 'v-source': -1 },
    }
    expect((await svc.call('PATCH', `/v1/flows/${flow.id}`, { token: svc.tokens.secret, json: { flow: edited } })).status).toBe(200)
    await publishOverHttp(svc, flow.id)

    const { columns, results } = await page(resultsPath(flow.id))
    expect(columns.map(({ id, name, hidden, width }) => ({ id, name, hidden, ...(width ? { width } : {}) }))).toEqual([
      { id: 'v-source', name: 'Source', hidden: false },
      { id: 'b-age', name: 'Age', hidden: false, width: 120 },
      { id: 'b-name', name: 'First name', hidden: true },
      { id: 'b-email', name: 'Contact', hidden: false },
      { id: 'v-notes', name: 'Notes', hidden: false },
    ])
    expect(results[0]).toMatchObject({ id: ada, cells: { 'b-email': 'ada@example.com', 'b-name': 'Ada' } })
  })
})

describe('GET /v1/flows/{flowId}/results/{resultId}', () => {
  it('shows one result: its row, its answers in order, its variables and its logs', async () => {
    const flow = await publishedSurvey()
    const start = await svc.call('POST', `/v1/flows/${flow.id}/startChat`, { json: { prefilledVariables: { Source: 'ad' } } })
    const { sessionId, resultId } = start.body
    for (const message of ['Ada', 'not an e-mail', 'ada@example.com', '36']) {
      svc.clock.advance(1_000)
      await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message } })
    }
    const res = await get(resultsPath(flow.id, {}, `/${resultId}`))
    expect(res.status).toBe(200)
    const { columns, result } = resultDetailSchema.parse(res.body)
    expect(columns).toHaveLength(5)
    expect(result).toMatchObject({
      id: resultId,
      flowId: flow.id,
      isCompleted: true,
      cells: { 'b-name': 'Ada', 'b-email': 'ada@example.com' },
    })
    expect(result.answers.map(({ blockId, columnId, value }) => ({ blockId, columnId, value }))).toEqual([
      { blockId: 'b-name', columnId: 'b-name', value: 'Ada' },
      { blockId: 'b-email', columnId: 'b-email', value: 'ada@example.com' },
      { blockId: 'b-age', columnId: 'b-age', value: '36' },
    ])
    expect(result.answers[0]).toMatchObject({ groupId: 'g-name', variableId: 'v-name', sessionId })
    expect(result.variables).toEqual([
      { id: 'v-name', name: 'Name', value: 'Ada' },
      { id: 'v-age', name: 'Age', value: '36' },
      { id: 'v-source', name: 'Source', value: 'ad' },
    ])
    expect(result.logs).toEqual([])
  })

  it('gives each answer as the visitor saw it beside the value stored, and finds results by either', async () => {
    // The survey's e-mail question becomes a choice whose items store values other than their labels.
    const flow = surveyFlow()
    flow.groups[1].blocks[0] = {
      id: 'b-topic',
      type: 'choice input',
      outgoingEdgeId: 'e2',
      items: [
        { id: 'i-return', content: 'A return', value: 'your return' },
        { id: 'i-other', content: 'Something else' },
      ],
    }
    flow.edges[2].from = { blockId: 'b-topic' }
    const published = await importAndPublish(flow)
    const resultId = await visit(published.id, ['Ada', 'A return', '36'])

    const { result } = resultDetailSchema.parse((await get(resultsPath(published.id, {}, `/${resultId}`))).body)
    expect(result.answers.map(({ blockId, value, display }) => ({ blockId, value, display }))).toEqual([
      { blockId: 'b-name', value: 'Ada', display: 'Ada' },
      { blockId: 'b-topic', value: 'your return', display: 'A return' },
      { blockId: 'b-age', value: '36', display: '36' },
    ])
    // The table and the exports show what the flow stored; a search finds the words the visitor read too.
    expect(result.cells['b-topic']).toBe('your return')
    for (const q of ['your return', 'a RETURN']) {
      expect((await page(resultsPath(published.id, { q }))).results.map((row) => row.id)).toEqual([resultId])
    }
  })

  it("finds a result only under its own flow, and only for its workspace's secret token", async () => {
    const flow = await publishedSurvey()
    const other = await publishedSurvey()
    const resultId = await visit(flow.id, ['Ada'])
    expectError(await get(resultsPath(other.id, {}, `/${resultId}`)), 404, 'not_found')
    expectError(await get(resultsPath(flow.id, {}, '/no-such-result')), 404, 'not_found')
    expectError(await get(resultsPath(flow.id, {}, `/${resultId}`), svc.tokens.otherSecret), 404, 'flow_not_found')
  })
})

describe('deleting results', () => {
  it('deletes one, several or all of a flow with their sessions, never another flow’s or workspace’s', async () => {
    const flow = await publishedSurvey()
    const neighbour = await publishedSurvey()
    const mine = [await visit(flow.id, ['A']), await visit(flow.id, ['B']), await visit(flow.id, ['C']), await visit(flow.id, ['D'])]
    const theirs = await visit(neighbour.id, ['N'])
    const foreignToken = await issueToken(svc.store, OTHER_WORKSPACE, 'secret')
    const foreignFlow = (
      await svc.call('POST', '/v1/flows/import', { token: foreignToken, json: { workspaceId: OTHER_WORKSPACE, flow: surveyFlow() } })
    ).body.flow
    await svc.call('POST', `/v1/flows/${foreignFlow.id}/publish`, { token: foreignToken })
    const foreign = await collectResult(svc, foreignFlow.id, ['F'])
    const sessionOf = async (resultId: string) =>
      (await svc.store.database.query<{ id: string }>(`SELECT id FROM ${svc.store.tables.sessions} WHERE result_id = $1`, [resultId]))[0]
        ?.id

    const firstSession = await sessionOf(mine[0]!)
    const one = await svc.call('DELETE', resultsPath(flow.id, {}, `/${mine[0]}`), { token: svc.tokens.secret })
    expect(deleteResultsResponseSchema.parse(one.body)).toEqual({ deleted: 1 })
    expect(await svc.store.sessions.findById(firstSession!)).toBeUndefined()
    expectError(await svc.call('DELETE', resultsPath(flow.id, {}, `/${mine[0]}`), { token: svc.tokens.secret }), 404, 'not_found')
    // Another flow's result through this flow's path: not found, still there.
    expectError(await svc.call('DELETE', resultsPath(flow.id, {}, `/${theirs}`), { token: svc.tokens.secret }), 404, 'not_found')

    const several = await svc.call('POST', resultsPath(flow.id, {}, '/delete'), {
      token: svc.tokens.secret,
      json: { resultIds: [mine[1], mine[2], theirs, foreign, 'unknown', mine[1]] },
    })
    expect(several.body).toEqual({ deleted: 2 })

    // The other workspace's token cannot reach this flow at all.
    expectError(
      await svc.call('POST', resultsPath(flow.id, {}, '/delete'), { token: foreignToken, json: { all: true } }),
      404,
      'flow_not_found',
    )
    const all = await svc.call('POST', resultsPath(flow.id, {}, '/delete'), { token: svc.tokens.secret, json: { all: true } })
    expect(all.body).toEqual({ deleted: 1 })
    expect((await page(resultsPath(flow.id))).results).toEqual([])
    expect((await page(resultsPath(neighbour.id))).results.map((row) => row.id)).toEqual([theirs])
    expect(await svc.store.results.findForFlow(foreign, foreignFlow.id)).toBeDefined()
    expect(await sessionOf(theirs)).toBeDefined()
  })

  it('refuses a delete that names nothing, both, or too many', async () => {
    const flow = await publishedSurvey()
    await visit(flow.id, ['A'])
    const bodies = [
      {},
      { all: true, resultIds: ['x'] },
      { all: false },
      { resultIds: [] },
      { resultIds: Array(1001).fill('x') },
      { resultIds: 'x' },
      { ids: ['x'] },
    ]
    for (const json of bodies) {
      expectError(await svc.call('POST', resultsPath(flow.id, {}, '/delete'), { token: svc.tokens.secret, json }), 400, 'invalid_body')
    }
    expect((await page(resultsPath(flow.id))).results).toHaveLength(1)
  })
})

describe('who may read and delete results', () => {
  it('takes only the owning workspace’s secret token, on every results call', async () => {
    const flow = await publishedSurvey()
    const resultId = await visit(flow.id, ['Ada'])
    const calls: Array<[string, string, unknown?]> = [
      ['GET', resultsPath(flow.id)],
      ['GET', resultsPath(flow.id, {}, '/export')],
      ['GET', resultsPath(flow.id, {}, `/${resultId}`)],
      ['GET', resultsPath(flow.id, {}, `/${resultId}/logs`)],
      ['DELETE', resultsPath(flow.id, {}, `/${resultId}`)],
      ['POST', resultsPath(flow.id, {}, '/delete'), { all: true }],
    ]
    for (const [method, path, json] of calls) {
      const options = json === undefined ? {} : { json }
      expectError(await svc.call(method, path, options), 401, 'unauthorized')
      expectError(await svc.call(method, path, { ...options, headers: { authorization: 'Bearer fs_sk_forged' } }), 401, 'unauthorized')
      expectError(await svc.call(method, path, { ...options, token: svc.tokens.publishable }), 403, 'forbidden')
      expectError(await svc.call(method, path, { ...options, token: svc.tokens.otherSecret }), 404, 'flow_not_found')
      expectError(await svc.call(method, path, { ...options, token: svc.tokens.otherPublishable }), 403, 'forbidden')
    }
    // Nothing was deleted by any of them.
    expect((await page(resultsPath(flow.id))).results.map((row) => row.id)).toEqual([resultId])
  })
})
