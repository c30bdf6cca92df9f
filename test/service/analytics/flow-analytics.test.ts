import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type FlowAnalytics, flowAnalyticsSchema } from '../../../src/protocol/analytics'
import { errorBodySchema } from '../../../src/protocol/index'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
/** Visits so far: each starts 10 minutes into its day after the one before. */
let slot = 0
beforeEach(async () => {
  svc = await createTestService(db)
  slot = 0
})
afterEach(() => svc.close())

const DAY = 86_400_000
const FIRST_DAY = Date.parse('2026-03-01T09:00:00.000Z')

/**
 * One visitor's conversation with the greeting flow (name in b2 of group g1, age in b3 of g2, then
 * the end): on `day` (0 = 2026-03-01), `answers` given (0, 1, or 2, which completes it), the
 * last `seconds` after the start.
 */
interface Visit {
  day: number
  answers: 0 | 1 | 2
  seconds: number
}

/** Runs `visits` of the flow's live version over HTTP, each at its own moment of its day. */
async function visit(publicId: string, visits: Visit[]) {
  for (const v of visits) {
    slot += 1
    moveClockTo(FIRST_DAY + v.day * DAY + slot * 600_000)
    const start = await svc.call('POST', `/v1/flows/${publicId}/startChat`, { json: {} })
    expect(start.status, start.text).toBe(200)
    const answers = ['Ada', '36'].slice(0, v.answers)
    for (const [n, message] of answers.entries()) {
      svc.clock.advance(((n + 1) * v.seconds * 1000) / answers.length - (n * v.seconds * 1000) / answers.length)
      const step = await svc.call('POST', `/v1/sessions/${start.body.sessionId}/continueChat`, { json: { message } })
      expect(step.status, step.text).toBe(200)
    }
  }
}

function moveClockTo(ms: number) {
  const now = svc.clock.now().getTime()
  expect(ms).toBeGreaterThanOrEqual(now)
  svc.clock.advance(ms - now)
}

/** What the figures must be, counted from the visits the test made. */
function expected(visits: Visit[]) {
  const finished = visits.filter((v) => v.answers === 2)
  const seconds = finished.map((v) => v.seconds).sort((a, b) => a - b)
  const mid = seconds.length / 2
  const median = seconds.length === 0 ? null : seconds.length % 2 === 1 ? seconds[Math.floor(mid)] : (seconds[mid - 1]! + seconds[mid]!) / 2
  const count = (test: (v: Visit) => boolean) => visits.filter(test).length
  return {
    started: visits.length,
    completed: finished.length,
    completionRate: visits.length === 0 ? null : finished.length / visits.length,
    medianSecondsToComplete: median,
    stoppedBeforeAnswering: count((v) => v.answers === 0),
    groups: [
      {
        id: 'g1',
        title: 'Ask',
        reached: count((v) => v.answers >= 1),
        stoppedAfter: count((v) => v.answers === 1),
        blocks: [{ id: 'b2', type: 'text input', reached: count((v) => v.answers >= 1), stoppedAfter: count((v) => v.answers === 1) }],
      },
      {
        id: 'g2',
        title: 'Bye',
        reached: count((v) => v.answers === 2),
        stoppedAfter: 0,
        blocks: [{ id: 'b3', type: 'number input', reached: count((v) => v.answers === 2), stoppedAfter: 0 }],
      },
      { id: 'g3', title: 'End', reached: 0, stoppedAfter: 0, blocks: [] },
    ],
  }
}

async function analytics(flowId: string, query = '', token = svc.tokens.secret) {
  return svc.call('GET', `/v1/flows/${flowId}/analytics${query}`, { token })
}

async function figures(flowId: string, query = ''): Promise<FlowAnalytics> {
  const res = await analytics(flowId, query)
  expect(res.status, res.text).toBe(200)
  return flowAnalyticsSchema.parse(res.body)
}

const onDays = (visits: Visit[], ...days: number[]) => visits.filter((v) => days.includes(v.day))

describe('GET /v1/flows/{id}/analytics', () => {
  it('counts, per version and date range, the conversations that reached each group and block, where they stopped, and how long finishing took', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const versionOne: Visit[] = [
      { day: 0, answers: 2, seconds: 40 },
      { day: 0, answers: 1, seconds: 5 },
      { day: 0, answers: 2, seconds: 10 },
      { day: 0, answers: 0, seconds: 0 },
      { day: 0, answers: 1, seconds: 8 },
      { day: 1, answers: 2, seconds: 70 },
      { day: 1, answers: 1, seconds: 3 },
    ]
    await visit(flow.publicId, versionOne)
    const second = greetingFlow()
    second.groups[0].blocks[0].content.richText[0].children[0].text = 'Hi again! Your name?'
    expect((await svc.call('PUT', `/v1/flows/${flow.id}`, { token: svc.tokens.secret, json: { flow: second } })).status).toBe(200)
    await publishOverHttp(svc, flow.id)
    const versionTwo: Visit[] = [
      { day: 2, answers: 2, seconds: 25 },
      { day: 2, answers: 0, seconds: 0 },
      { day: 2, answers: 1, seconds: 4 },
      { day: 3, answers: 2, seconds: 90 },
    ]
    await visit(flow.publicId, versionTwo)
    // Another flow's conversations never count.
    const other = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, other.id)
    await visit(other.publicId, [{ day: 3, answers: 2, seconds: 1 }])

    const all = [...versionOne, ...versionTwo]
    expect(await figures(flow.id, '?from=2026-03-01&to=2026-03-04')).toEqual({
      flowId: flow.id,
      version: null,
      from: '2026-03-01',
      to: '2026-03-04',
      ...expected(all),
    })
    expect(await figures(flow.id, '?version=1&from=2026-03-01&to=2026-03-04')).toMatchObject({ version: 1, ...expected(versionOne) })
    expect(await figures(flow.id, '?version=2&from=2026-03-01&to=2026-03-04')).toMatchObject({ version: 2, ...expected(versionTwo) })
    // Both ends are whole days, included.
    expect(await figures(flow.id, '?from=2026-03-02&to=2026-03-03')).toMatchObject(expected(onDays(all, 1, 2)))
    expect(await figures(flow.id, '?from=2026-03-04&to=2026-03-04')).toMatchObject(expected(onDays(all, 3)))
    // Without dates: the 30 days up to today (the clock's 2026-03-04).
    expect(await figures(flow.id)).toMatchObject({ from: '2026-02-03', to: '2026-03-04', ...expected(all) })
    // A range without conversations: zeros, no rate, no median.
    expect(await figures(flow.id, '?from=2026-01-01&to=2026-01-31')).toMatchObject({
      started: 0,
      completionRate: null,
      medianSecondsToComplete: null,
    })
    // The same figures as a CSV file, a row per step of the funnel.
    const csv = await analytics(flow.id, '?format=csv&version=1&from=2026-03-01&to=2026-03-04')
    expect(csv.status, csv.text).toBe(200)
    expect(csv.headers.get('Content-Type')).toMatch(/^text\/csv/)
    expect(csv.headers.get('Content-Disposition')).toBe(`attachment; filename="${flow.publicId}-drop-off-v1-2026-03-01-2026-03-04.csv"`)
    const one = expected(versionOne)
    expect(
      csv.text
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n'),
    ).toEqual([
      'Step,Group,Block,Block type,Conversations,Stopped after',
      `Started,,,,${one.started},${one.stoppedBeforeAnswering}`,
      `Group,Ask,,,${one.groups[0]!.reached},${one.groups[0]!.stoppedAfter}`,
      `Block,Ask,b2,text input,${one.groups[0]!.blocks[0]!.reached},${one.groups[0]!.blocks[0]!.stoppedAfter}`,
      `Group,Bye,,,${one.groups[1]!.reached},0`,
      `Block,Bye,b3,number input,${one.groups[1]!.blocks[0]!.reached},0`,
      'Group,End,,,0,0',
      `Completed,,,,${one.completed},`,
    ])
    // A version nobody ran: nothing counted, the flow's groups still listed.
    expect((await figures(flow.id, '?version=9&from=2026-03-01&to=2026-03-04')).groups.map((g) => g.id)).toEqual(['g1', 'g2', 'g3'])
  })

  it('lists groups and blocks only older versions had after the ones of the version shown', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    await visit(flow.publicId, [{ day: 0, answers: 1, seconds: 2 }])
    // Version 2 asks the name in a new block of a new group.
    const renamed = greetingFlow()
    renamed.groups[0] = { ...renamed.groups[0], id: 'g1b', title: 'Who' }
    renamed.groups[0].blocks[1] = { ...renamed.groups[0].blocks[1], id: 'b2b' }
    renamed.edges[0] = { ...renamed.edges[0], to: { groupId: 'g1b' } }
    renamed.edges[1] = { ...renamed.edges[1], from: { blockId: 'b2b' } }
    expect((await svc.call('PUT', `/v1/flows/${flow.id}`, { token: svc.tokens.secret, json: { flow: renamed } })).status).toBe(200)
    await publishOverHttp(svc, flow.id)
    await visit(flow.publicId, [{ day: 0, answers: 2, seconds: 6 }])

    const shown = await figures(flow.id, '?from=2026-03-01&to=2026-03-01')
    expect(shown.groups.map((g) => [g.id, g.title, g.reached, g.blocks.map((b) => [b.id, b.type, b.reached, b.stoppedAfter])])).toEqual([
      ['g1b', 'Who', 1, [['b2b', 'text input', 1, 0]]],
      ['g2', 'Bye', 1, [['b3', 'number input', 1, 0]]],
      ['g3', 'End', 0, []],
      ['g1', null, 1, [['b2', null, 1, 1]]],
    ])
    // Version 1's layout when asking for version 1.
    expect((await figures(flow.id, '?version=1&from=2026-03-01&to=2026-03-01')).groups.map((g) => [g.id, g.title])).toEqual([
      ['g1', 'Ask'],
      ['g2', 'Bye'],
      ['g3', 'End'],
    ])
  })

  it("answers another workspace's token as for an unknown flow, and refuses tokens that cannot read results", async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    const foreign = await analytics(flow.id, '', svc.tokens.otherSecret)
    expect(foreign.status).toBe(404)
    expect(errorBodySchema.parse(foreign.body).error.code).toBe('flow_not_found')
    expect(foreign.text).not.toContain('Greeting')
    expect((await analytics(flow.id, '', svc.tokens.publishable)).status).toBe(403)
    expect((await svc.call('GET', `/v1/flows/${flow.id}/analytics`)).status).toBe(401)
  })

  it.each([
    ['?version=0', 'version'],
    ['?version=one', 'version'],
    ['?version=1&version=2', 'version'],
    ['?from=2026-02-30', 'from'],
    ['?from=26-03-01', 'from'],
    ['?to=2026-03-01T10:00:00Z', 'to'],
    ['?from=2026-03-02&to=2026-03-01', 'to'],
    ['?from=2025-01-01&to=2026-03-01', 'to'],
    ['?completed=true', ''],
    ['?format=xlsx', 'format'],
  ])('refuses %s with a 400 naming the parameter', async (query, path) => {
    const flow = await importOverHttp(svc, greetingFlow())
    const res = await analytics(flow.id, query)
    expect(res.status, res.text).toBe(400)
    const { error } = errorBodySchema.parse(res.body)
    expect(error.code).toBe('invalid_query')
    expect(error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]))
  })
})
