import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { flowSchema, importFlowRequestSchema, publishedFlowSchema, readableIssues, updateFlowRequestSchema } from '../../src/protocol/index'

const sharedFlowsDir = join(import.meta.dirname, '../../../shared/flows')
const sharedFlows = readdirSync(sharedFlowsDir)
  .filter((file) => file.endsWith('.json'))
  .map((file) => ({ file, json: JSON.parse(readFileSync(join(sharedFlowsDir, file), 'utf8')) }))

describe('real flow exports', () => {
  test('the shared folder holds the flows this suite is about', () => {
    expect(sharedFlows.map((f) => f.file)).toEqual(expect.arrayContaining(['test-chat-main.json', 'tpl-lead-scoring.json', 'tpl-nps.json']))
  })

  test.each(sharedFlows)('$file parses as an import body, keeping every block', ({ json }) => {
    const parsed = importFlowRequestSchema.parse({ workspaceId: 'demo', flow: json })
    const blockCount = (flow: { groups: { blocks: unknown[] }[] }) => flow.groups.reduce((n, g) => n + g.blocks.length, 0)
    expect(blockCount(parsed.flow)).toBe(blockCount(json))
    expect(parsed.flow.edges).toHaveLength(json.edges.length)
  })

  test.each(sharedFlows)('$file parses as a stored flow (nulls and brand fields allowed)', ({ json }) => {
    const parsed = flowSchema.parse(json)
    expect(parsed.id).toBe(json.id)
    // Unknown fields survive a parse: a later schema version must not lose data on a round trip.
    expect((parsed as Record<string, unknown>).whatsAppCredentialsId).toBe(json.whatsAppCredentialsId)
  })

  test('unknown block types are kept with all their fields', () => {
    const json = sharedFlows.find((f) => f.file === 'test-chat-main.json')!.json
    const parsed = importFlowRequestSchema.parse({ workspaceId: 'demo', flow: json })
    const webhook = parsed.flow.groups.flatMap((g) => g.blocks).find((b) => b.type === 'Webhook')
    expect(webhook?.options).toMatchObject({ webhook: { method: 'POST' } })
  })
})

describe('invalid bodies fail with readable issues', () => {
  const cases: { name: string; body: unknown; path: string }[] = [
    { name: 'no workspace', body: { flow: { events: [], groups: [], edges: [] } }, path: 'workspaceId' },
    { name: 'empty workspace', body: { workspaceId: '', flow: { events: [], groups: [], edges: [] } }, path: 'workspaceId' },
    { name: 'groups not an array', body: { workspaceId: 'w', flow: { events: [], groups: {}, edges: [] } }, path: 'flow.groups' },
    {
      name: 'block without id',
      body: { workspaceId: 'w', flow: { events: [], edges: [], groups: [{ id: 'g', blocks: [{ type: 'text' }] }] } },
      path: 'flow.groups.0.blocks.0.id',
    },
    {
      name: 'edge without target group',
      body: { workspaceId: 'w', flow: { events: [], groups: [], edges: [{ id: 'e', from: {}, to: {} }] } },
      path: 'flow.edges.0.to.groupId',
    },
    {
      name: 'theme color as a number',
      body: { workspaceId: 'w', flow: { events: [], groups: [], edges: [], theme: { chat: { hostBubbles: { color: 12 } } } } },
      path: 'flow.theme.chat.hostBubbles.color',
    },
  ]
  test.each(cases)('$name → issue at $path', ({ body, path }) => {
    const result = importFlowRequestSchema.safeParse(body)
    expect(result.success).toBe(false)
    const issues = readableIssues(result.error!)
    expect(issues.map((i) => i.path)).toContain(path)
    for (const issue of issues) expect(issue.message.length).toBeGreaterThan(0)
  })

  test('a body that is not an object names the root', () => {
    const result = importFlowRequestSchema.safeParse(['not', 'an', 'object'])
    expect(readableIssues(result.error!)).toEqual([{ path: '', message: expect.any(String) }])
  })
})

describe('update and published flow', () => {
  test('an update may carry any subset of the editable fields', () => {
    expect(updateFlowRequestSchema.parse({ flow: { name: 'Renamed' } }).flow.name).toBe('Renamed')
    expect(updateFlowRequestSchema.parse({ flow: { isClosed: true, updatedAt: '2026-11-22T10:00:00.000Z' } }).flow.isClosed).toBe(true)
  })

  test('an update must hold a flow object', () => {
    expect(updateFlowRequestSchema.safeParse({ name: 'x' }).success).toBe(false)
  })

  test('a published flow needs its id, flowId and timestamps', () => {
    const base = { events: [], groups: [], edges: [] }
    expect(publishedFlowSchema.safeParse(base).success).toBe(false)
    const ok = publishedFlowSchema.parse({
      ...base,
      id: 'p1',
      flowId: 'f1',
      version: '6',
      createdAt: '2026-11-22T10:00:00.000Z',
      updatedAt: '2026-11-22T10:00:00.000Z',
    })
    expect(ok.flowId).toBe('f1')
  })
})
