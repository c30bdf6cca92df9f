import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migrateToV6 } from '../../../src/service/flows/flow-migration'
import { useTestDatabase } from '../helpers/database'
import { importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, type TestService, WORKSPACE } from '../helpers/service'

const paragraph = (text: string) => ({ richText: [{ type: 'p', children: [{ text }] }] })

/**
 * An export in the pre-6 shape: no events, a "Start" group holding the legacy `start` block
 * whose edge leaves from the block, redundant `groupId`s, an old-style HTTP block that only
 * names a webhook row the export does not carry, and numeric item `type`s.
 */
function legacyExport(version: string | undefined) {
  return {
    ...(version === undefined ? {} : { version }),
    id: 'legacy-flow',
    name: 'Legacy',
    groups: [
      {
        id: 'gStart',
        title: 'Start',
        graphCoordinates: { x: 0, y: 0 },
        blocks: [{ id: 'bStart', type: 'start', label: 'Start', groupId: 'gStart', outgoingEdgeId: 'eStart' }],
      },
      {
        id: 'gWelcome',
        title: 'Welcome',
        graphCoordinates: { x: 10, y: 150 },
        blocks: [
          { id: 'b1', type: 'text', groupId: 'gWelcome', content: paragraph('Welcome!') },
          {
            id: 'b2',
            type: 'choice input',
            groupId: 'gWelcome',
            items: [{ id: 'i1', type: 0, blockId: 'b2', content: 'Hi!' }],
            options: { buttonLabel: 'Send', isMultipleChoice: false },
            outgoingEdgeId: 'e2',
          },
        ],
      },
      {
        id: 'gName',
        title: 'Name',
        blocks: [{ id: 'b3', type: 'text input', groupId: 'gName', options: { variableId: 'vName' }, outgoingEdgeId: 'e3' }],
      },
      {
        id: 'gBye',
        title: 'Bye',
        blocks: [
          { id: 'b4', type: 'Webhook', groupId: 'gBye', options: { responseVariableMapping: [] }, webhookId: 'webhook1' },
          { id: 'b5', type: 'text', groupId: 'gBye', content: paragraph('Bye {{Name}}') },
        ],
      },
    ],
    variables: [{ id: 'vName', name: 'Name' }],
    edges: [
      { id: 'eStart', from: { blockId: 'bStart', groupId: 'gStart' }, to: { groupId: 'gWelcome' } },
      { id: 'e2', from: { blockId: 'b2', groupId: 'gWelcome' }, to: { groupId: 'gName' } },
      { id: 'e3', from: { blockId: 'b3', groupId: 'gName' }, to: { groupId: 'gBye' } },
      { id: 'broken', from: { blockId: 'b5' } },
    ],
    theme: { general: { font: 'Open Sans' } },
    settings: { general: { isBrandingEnabled: true } },
    publicId: null,
  }
}

describe('migrateToV6', () => {
  it('turns the start block into a start event whose edge leaves from the event', () => {
    const migrated = migrateToV6(legacyExport('4')) as Record<string, any>
    expect(migrated.version).toBe('6')
    expect(migrated.events).toEqual([{ id: 'gStart', type: 'start', graphCoordinates: { x: 0, y: 0 }, outgoingEdgeId: 'eStart' }])
    expect(migrated.edges[0]).toEqual({ id: 'eStart', from: { eventId: 'gStart' }, to: { groupId: 'gWelcome' } })
    expect(migrated.groups.map((group: { id: string }) => group.id)).toEqual(['gWelcome', 'gName', 'gBye'])
    expect(JSON.stringify(migrated.groups)).not.toContain('"start"')
  })

  it('drops edges that lead nowhere and gives groups without a block list an empty one', () => {
    const flow = { ...legacyExport(undefined), groups: [...legacyExport(undefined).groups, { id: 'gEmpty', title: 'Empty' }] }
    const migrated = migrateToV6(flow) as Record<string, any>
    expect(migrated.edges.map((edge: { id: string }) => edge.id)).toEqual(['eStart', 'e2', 'e3'])
    expect(migrated.groups.find((group: { id: string }) => group.id === 'gEmpty').blocks).toEqual([])
  })

  it('keeps linked flows merging with their caller, as they did before version 6', () => {
    const flow = {
      version: '5',
      groups: [
        {
          id: 'g',
          blocks: [
            { id: 'l1', type: 'Typebot link', options: { typebotId: 'x' } },
            { id: 'l2', type: 'Typebot link', options: { typebotId: 'x', mergeResults: false } },
          ],
        },
      ],
      edges: [],
    }
    const blocks = (migrateToV6(flow) as Record<string, any>).groups[0].blocks
    expect(blocks.map((block: { options: { mergeResults: boolean } }) => block.options.mergeResults)).toEqual([true, false])
  })

  it('leaves version 6 flows and non-objects alone', () => {
    const current = { version: '6.1', events: [], groups: [{ id: 'g', blocks: [{ id: 's', type: 'start' }] }], edges: [] }
    expect(migrateToV6(current)).toBe(current)
    expect(migrateToV6('not a flow')).toBe('not a flow')
  })
})

describe('importing older exports over HTTP', () => {
  const db = useTestDatabase()
  let svc: TestService
  beforeEach(async () => {
    svc = await createTestService(db)
  })
  afterEach(() => svc.close())

  const texts = (body: { messages?: Array<{ content?: any }> }) =>
    (body.messages ?? []).map((message) => message.content?.richText?.[0]?.children?.[0]?.text)

  for (const [label, version] of [
    ['a version-4 export', '4'],
    ['a version-less export', undefined],
  ] as const) {
    it(`${label} with a start block imports as version 6 and runs to its end`, async () => {
      const flow = await importOverHttp(svc, legacyExport(version))
      expect(flow.version).toBe('6')
      expect(flow.events).toEqual([expect.objectContaining({ type: 'start', outgoingEdgeId: 'eStart' })])
      await publishOverHttp(svc, flow.id)

      const started = await svc.call('POST', `/v1/flows/${flow.id}/startChat`, {})
      expect(started.status).toBe(200)
      expect(texts(started.body)).toEqual(['Welcome!'])
      const chat = (message: string) => svc.call('POST', `/v1/sessions/${started.body.sessionId}/continueChat`, { json: { message } })
      expect((await chat('Hi!')).body.input.type).toBe('text input')
      const end = await chat('Ada')
      expect(texts(end.body)).toEqual(['Bye Ada'])
      // The old HTTP block names a webhook row the export cannot carry: logged, and the walk goes on.
      expect(end.body.logs).toEqual([expect.objectContaining({ details: expect.objectContaining({ blockId: 'b4' }) })])
      expect(end.body.progress ?? 100).toBe(100)
    })
  }

  it('answers 400 naming the path when a required field is missing, never for extra fields', async () => {
    const flow = legacyExport('3') as Record<string, any>
    flow.groups[1].blocks[0] = { type: 'text', somethingNew: true }
    const res = await svc.call('POST', '/v1/flows/import', { token: svc.tokens.secret, json: { workspaceId: WORKSPACE, flow } })
    expect(res.status).toBe(400)
    // After migration the start group is gone, so the welcome group is the first one.
    expect(res.body.error.details).toEqual([expect.objectContaining({ path: 'flow.groups.0.blocks.0.id' })])

    const extra = { ...legacyExport('5'), brandNewField: { nested: [1, 2] } }
    expect((await importOverHttp(svc, extra)).brandNewField).toEqual({ nested: [1, 2] })
  })

  it('migrateToLatestVersion on read converts content an update left in an older version', async () => {
    const flow = await importOverHttp(svc, legacyExport('4'))
    const old = legacyExport('5')
    const patched = await svc.call('PATCH', `/v1/flows/${flow.id}`, {
      token: svc.tokens.secret,
      json: { flow: { version: '5', events: [], groups: old.groups, edges: old.edges.slice(0, 3) } },
    })
    expect(patched.status).toBe(200)
    const read = (query: string) => svc.call('GET', `/v1/flows/${flow.id}${query}`, { token: svc.tokens.secret })
    expect((await read('')).body.flow.version).toBe('5')
    const migrated = (await read('?migrateToLatestVersion=true')).body.flow
    expect(migrated.version).toBe('6.1')
    expect(migrated.events).toEqual([expect.objectContaining({ id: 'gStart', type: 'start' })])
    expect(JSON.stringify(migrated.groups)).not.toContain('"type":"start"')
  })
})
