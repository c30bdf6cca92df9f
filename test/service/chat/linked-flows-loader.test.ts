import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useTestDatabase } from '../helpers/database'
import { importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, OTHER_WORKSPACE, type TestService } from '../helpers/service'

/**
 * Linked flows and commands through the service: what a link may reach is decided by the
 * service (the session's workspace, published versions only), and results land where they belong.
 */
const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const paragraph = (text: string) => ({ richText: [{ type: 'p', children: [{ text }] }] })
const texts = (body: { messages?: Array<{ content?: any }> }) =>
  (body.messages ?? []).map((message) => message.content?.richText?.[0]?.children?.[0]?.text)

function flowWith(blocks: unknown[], extra: Record<string, unknown> = {}) {
  return {
    version: '6',
    name: 'Linked',
    events: [{ id: 'start', type: 'start', outgoingEdgeId: 'e0' }],
    groups: [{ id: 'g', title: 'Main', blocks }],
    edges: [{ id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g' } }],
    variables: [{ id: 'vName', name: 'Name' }],
    ...extra,
  }
}

const child = () =>
  flowWith([
    { id: 'c1', type: 'text', content: paragraph('In the child') },
    { id: 'c2', type: 'text input', options: { variableId: 'vName' } },
  ])
const parent = (typebotId: string, mergeResults = false) =>
  flowWith([
    { id: 'p1', type: 'Typebot link', options: { typebotId, mergeResults } },
    { id: 'p2', type: 'text', content: paragraph('Back, {{Name}}') },
  ])

async function importAndPublish(flow: unknown, token = svc.tokens.secret, workspaceId?: string) {
  if (token === svc.tokens.secret) {
    const created = await importOverHttp(svc, flow)
    await publishOverHttp(svc, created.id)
    return created
  }
  const res = await svc.call('POST', '/v1/flows/import', { token, json: { workspaceId, flow } })
  await svc.call('POST', `/v1/flows/${res.body.flow.id}/publish`, { token })
  return res.body.flow
}

const start = (flowId: string) => svc.call('POST', `/v1/flows/${flowId}/startChat`, {})
const send = (sessionId: string, message: unknown) => svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message } })

describe('Typebot link through the service', () => {
  it('runs the published version of a flow of the same workspace, its answers in its own result', async () => {
    const linked = await importAndPublish(child())
    const main = await importAndPublish(parent(linked.id))
    const started = await start(main.id)
    expect(texts(started.body)).toEqual(['In the child'])
    const done = await send(started.body.sessionId, 'Ada')
    expect(texts(done.body)).toEqual(['Back, '])
    expect(await svc.store.results.listAnswers(started.body.resultId)).toEqual([])
    const [own] = await svc.store.database.query<{ id: string; is_completed: boolean }>(
      `SELECT id, is_completed FROM ${svc.store.tables.results} WHERE flow_id = $1`,
      [linked.id],
    )
    expect(own?.is_completed).toBe(true)
    expect(await svc.store.results.listAnswers(own!.id)).toEqual([expect.objectContaining({ blockId: 'c2', value: 'Ada' })])
    const session = await svc.store.sessions.findById(started.body.sessionId)
    expect(session?.completedAt).not.toBeNull()
  })

  it('with mergeResults the answer and the variable stay in the caller’s result', async () => {
    const linked = await importAndPublish(child())
    const main = await importAndPublish(parent(linked.id, true))
    const started = await start(main.id)
    const done = await send(started.body.sessionId, 'Ada')
    expect(texts(done.body)).toEqual(['Back, Ada'])
    expect(await svc.store.results.listAnswers(started.body.resultId)).toEqual([expect.objectContaining({ blockId: 'c2', value: 'Ada' })])
    expect((await svc.store.results.findForFlow(started.body.resultId, main.id))?.variables.vName).toBe('Ada')
  })

  it('a flow of another workspace reads as missing: a log entry, and the walk goes on', async () => {
    const foreign = await importAndPublish(child(), svc.tokens.otherSecret, OTHER_WORKSPACE)
    const main = await importAndPublish(parent(foreign.id))
    const started = await start(main.id)
    expect(texts(started.body)).toEqual(['Back, '])
    expect(started.body.logs).toEqual([expect.objectContaining({ status: 'error', details: expect.objectContaining({ blockId: 'p1' }) })])
    expect(JSON.stringify(started.body)).not.toContain('In the child')
  })

  it('an unpublished flow of the same workspace is not reachable either', async () => {
    const draft = await importOverHttp(svc, child())
    const main = await importAndPublish(parent(draft.id))
    expect(texts((await start(main.id)).body)).toEqual(['Back, '])
  })
})

describe('commands through continueChat', () => {
  const withCommand = () =>
    flowWith([{ id: 'ask', type: 'text input', options: { variableId: 'vName' } }], {
      events: [
        { id: 'start', type: 'start', outgoingEdgeId: 'e0' },
        { id: 'cmd', type: 'command', outgoingEdgeId: 'e1', options: { command: 'help' } },
      ],
      groups: [
        { id: 'g', title: 'Main', blocks: [{ id: 'ask', type: 'text input', options: { variableId: 'vName' } }] },
        {
          id: 'help',
          title: 'Help',
          blocks: [
            { id: 'h', type: 'text', content: paragraph('Type your name') },
            { id: 'r', type: 'Return' },
          ],
        },
      ],
      edges: [
        { id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g' } },
        { id: 'e1', from: { eventId: 'cmd' }, to: { groupId: 'help' } },
      ],
    })

  it('a known command runs its event and the input comes back', async () => {
    const main = await importAndPublish(withCommand())
    const started = await start(main.id)
    const res = await send(started.body.sessionId, { type: 'command', command: 'help' })
    expect(res.status).toBe(200)
    expect(texts(res.body)).toEqual(['Type your name'])
    expect(res.body.input.id).toBe('ask')
  })

  it('an unknown command is a 400 and changes nothing', async () => {
    const main = await importAndPublish(withCommand())
    const started = await start(main.id)
    const before = await svc.store.sessions.findById(started.body.sessionId)
    const res = await send(started.body.sessionId, { type: 'command', command: 'nope' })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatchObject({ code: 'invalid_body', details: [{ path: 'message.command' }] })
    expect(await svc.store.sessions.findById(started.body.sessionId)).toEqual(before)
    // The answer still works afterwards, given as a text object.
    expect((await send(started.body.sessionId, { type: 'text', text: 'Ada' })).status).toBe(200)
  })
})
