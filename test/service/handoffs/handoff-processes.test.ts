import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newToken } from '../../../src/service/ids'
import { openPgDatabase } from '../../../src/service/store/pg-database'
import { databaseUrl, dropSchema, freshSchema } from '../helpers/database'
import { callOverHttp, data, handoffFlow, openStream, overHttp, visitorPath } from '../helpers/handoffs'
import { type ServiceProcess, startServiceProcess } from '../helpers/service-process'

/**
 * A visitor on one service process and a person on another, both on one PostgreSQL server: each
 * sees the other's messages at once, through the database's notifications (no process shares
 * memory with the other). Needs DATABASE_URL.
 */
const schema = freshSchema()
const secret = newToken('secret')
const processes: ServiceProcess[] = []
let visitorSide = ''
let teamSide = ''

const call = (base: string, method: string, path: string, body?: unknown, token?: string) =>
  callOverHttp(base, method, path, { body, ...(token ? { token } : {}) })

describe.skipIf(!databaseUrl)('a handed-over conversation across service processes', () => {
  beforeAll(async () => {
    const env = { DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schema, FLOW_SECRET_TOKEN: secret }
    // One after the other: the first creates the schema, the second finds it migrated.
    processes.push(await startServiceProcess(env))
    processes.push(await startServiceProcess(env))
    visitorSide = processes[0]!.url
    teamSide = processes[1]!.url
  }, 60_000)
  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()))
    const pg = openPgDatabase(databaseUrl!)
    await dropSchema(pg, schema)
    await pg.close()
  })

  it('delivers each side’s messages to the other process, and the flow’s next step to the visitor', async () => {
    const imported = await call(teamSide, 'POST', '/v1/flows/import', { workspaceId: 'demo', flow: handoffFlow() }, secret)
    const flowId = imported.body.flow.id as string
    expect((await call(teamSide, 'POST', `/v1/flows/${flowId}/publish`, {}, secret)).status).toBe(200)
    const agent = await call(teamSide, 'POST', '/v1/tokens', { kind: 'agent', agent: { name: 'Ada' } }, secret)
    const ada = agent.body.value as string

    const inbox = await openStream(overHttp(teamSide), '/v1/handoffs/events', { authorization: `Bearer ${ada}` })
    const started = await call(visitorSide, 'POST', `/v1/flows/${flowId}/startChat`, {})
    const { sessionId } = started.body
    const handoffId = started.body.clientSideActions[0].handoff.handoffId as string
    const visitor = await openStream(overHttp(visitorSide), visitorPath(sessionId, 'events'))
    await visitor.take(1)
    expect(data((await inbox.take(1, (event) => event.type === 'handoff'))[0]!).handoff.id).toBe(handoffId)

    expect((await call(teamSide, 'POST', `/v1/handoffs/${handoffId}/claim`, {}, ada)).status).toBe(200)
    await call(teamSide, 'POST', `/v1/handoffs/${handoffId}/messages`, { text: 'Hello from Ada' }, ada)
    const [fromAda] = await visitor.take(1, (event) => event.type === 'message')
    expect(data(fromAda!)).toMatchObject({ author: 'agent', text: 'Hello from Ada' })

    await call(visitorSide, 'POST', visitorPath(sessionId, 'messages'), { text: 'Hello Ada' })
    await call(visitorSide, 'POST', visitorPath(sessionId, 'typing'), { typing: true })
    const [fromVisitor] = await inbox.take(1, (event) => event.type === 'message' && data(event).event.author === 'visitor')
    expect(data(fromVisitor!).event).toMatchObject({ author: 'visitor', text: 'Hello Ada' })
    const [typing] = await inbox.take(1, (event) => event.type === 'typing')
    expect(data(typing!)).toEqual({ type: 'typing', handoffId, typing: true })

    await call(teamSide, 'POST', `/v1/handoffs/${handoffId}/end`, {}, ada)
    const rest = await visitor.rest(10_000)
    expect(rest.at(-1)?.type).toBe('continued')
    expect(visitor.events.filter((event) => event.id).map((event) => Number(event.id))).toEqual([1, 2, 3, 4, 5, 6])
    inbox.close()
  })
})
