import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChatInput } from '../../src/protocol/index'
import { useTestDatabase } from '../service/helpers/database'
import { createTestService, type TestService, WORKSPACE } from '../service/helpers/service'
import { answerFor } from '../service/helpers/walker'
import { type CodeBlock, codeBlocks, documents } from './doc-blocks'

/**
 * Every flow the documentation shows, imported, published and played to its end through the chat
 * API with scripted answers (a valid answer for each input, the replies a widget would send for
 * actions that wait on the browser, an outside system's call for a webhook wait). A whole flow
 * (`{"groups": …}`) plays as written; a block, or a list of blocks, plays in a flow of its own:
 * a start event leading to one group holding it.
 */

type Json = Record<string, unknown>

interface DocFlow {
  block: CodeBlock
  flow: Json
}

/** Any JSON value read from a block: every json block of the docs must parse. */
const parse = (block: CodeBlock): unknown => JSON.parse(block.code)

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const isBlock = (value: unknown): value is Json =>
  isObject(value) && typeof value.id === 'string' && typeof value.type === 'string' && !('groups' in value)

/** The ids of the variables a block names (`variableId`, `…VariableId`), so a flow around it declares them. */
function variableIds(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) variableIds(item, found)
  else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (/^(?:variableId|\w+VariableId)$/.test(key) && typeof item === 'string') found.add(item)
      else variableIds(item, found)
    }
  }
  return found
}

/** A flow around blocks shown alone: start → one group → the end. */
function flowAround(blocks: Json[], name: string): Json {
  return {
    version: '6',
    name,
    events: [{ id: 'start', type: 'start', outgoingEdgeId: 'to-example' }],
    groups: [{ id: 'example', title: 'Example', blocks }],
    edges: [{ id: 'to-example', from: { eventId: 'start' }, to: { groupId: 'example' } }],
    variables: [...variableIds(blocks)].map((id) => ({ id, name: id })),
  }
}

function docFlows(): DocFlow[] {
  return documents()
    .flatMap(codeBlocks)
    .filter((block) => block.lang === 'json' && block.instruction?.kind !== 'output')
    .flatMap((block) => {
      const value = parse(block)
      if (isObject(value) && Array.isArray(value.groups)) return [{ block, flow: value }]
      const blocks = Array.isArray(value) && value.length > 0 && value.every(isBlock) ? value : isBlock(value) ? [value] : undefined
      return blocks ? [{ block, flow: flowAround(blocks, block.name) }] : []
    })
}

/** Blocks that reach other systems: offline here, so they fail, log it, and the flow goes on. */
const INTEGRATIONS = new Set(['Webhook', 'Email', 'openai', 'mistral', 'OpenAI'])
const MAX_STEPS = 50

interface Step {
  input?: ChatInput
  clientSideActions?: Array<{ type: string; expectsDedicatedReply?: boolean; listenForWebhook?: { waitId: string } }>
  logs?: Array<{ status: string; description: string; details?: { type?: string; blockId?: string } }>
}

/** Plays a published flow as a visitor would; returns every step and whether the flow ended. */
async function play(service: TestService, flowId: string): Promise<{ ended: boolean; steps: Step[] }> {
  const started = await service.call('POST', `/v1/flows/${flowId}/startChat`, { json: {} })
  expect(started.status, started.text).toBe(200)
  const { sessionId, resultId } = started.body as { sessionId: string; resultId: string }
  const steps: Step[] = [started.body]
  for (let count = 0; count < MAX_STEPS; count++) {
    const step = steps.at(-1)!
    const waiting = step.clientSideActions?.find((action) => action.expectsDedicatedReply)
    let reply: string
    if (step.input) reply = answerFor(step.input)
    else if (waiting?.type === 'listenForWebhook') {
      // The outside system calls back; the widget's long poll then gets the step it produced.
      const called = await service.call('POST', `/v1/flows/${flowId}/results/${resultId}/webhook`, {
        token: service.tokens.secret,
        json: { status: 'paid' },
      })
      expect(called.status, called.text).toBe(200)
      const waitId = encodeURIComponent(waiting.listenForWebhook!.waitId)
      const heard = await service.call('GET', `/v1/sessions/${sessionId}/listenForWebhook?waitId=${waitId}&timeoutSeconds=0`)
      expect(heard.body?.status, heard.text).toBe('continued')
      steps.push(heard.body.step)
      continue
    } else if (waiting?.type === 'httpRequestToExecute' || waiting?.type === 'webhookToExecute')
      reply = JSON.stringify({ statusCode: 200, data: {} })
    else if (waiting) reply = ''
    else return { ended: true, steps }
    const next = await service.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message: reply } })
    expect(next.status, next.text).toBe(200)
    steps.push(next.body)
  }
  return { ended: false, steps }
}

const db = useTestDatabase()
let service: TestService

beforeAll(async () => {
  // Outgoing calls go through the guard with a DNS that knows no name: nothing leaves the machine.
  const offline = async (host: string) => {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
  }
  service = await createTestService(db, { resolve: offline })
})
afterAll(() => service?.close())

describe('every flow in the documentation', () => {
  const flows = docFlows()

  it('are there to play', () => {
    expect(flows.length).toBeGreaterThanOrEqual(20)
  })

  for (const { block, flow } of flows) {
    it(`${block.name} imports, publishes and plays to its end`, async () => {
      const imported = await service.call('POST', '/v1/flows/import', {
        token: service.tokens.secret,
        json: { workspaceId: WORKSPACE, flow },
      })
      expect(imported.status, imported.text).toBe(200)
      const flowId = (imported.body as { flow: { id: string } }).flow.id
      const published = await service.call('POST', `/v1/flows/${flowId}/publish`, { token: service.tokens.secret })
      expect(published.status, published.text).toBe(200)

      const { ended, steps } = await play(service, flowId)
      expect(ended, `still waiting after ${MAX_STEPS} answers`).toBe(true)
      const skipped = steps.flatMap((step) => step.logs ?? []).filter((log) => log.details?.type && !INTEGRATIONS.has(log.details.type))
      if (block.instruction?.kind === 'not-run') {
        // The docs say the service skips these blocks: it must say so, and the visitor goes on.
        expect(skipped.map((log) => log.description).join('\n')).toMatch(/is not supported/)
      } else {
        expect(skipped.map((log) => `${log.details?.type}: ${log.description}`)).toEqual([])
      }
    })
  }
})
