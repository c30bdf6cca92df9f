import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'

/**
 * What issue 15 asks of the widget, in Chromium against the built bundle and the service: a host
 * page's commands, an HTTP request block run from the visitor's browser (to a real server on
 * another origin, so CORS applies), and a wait-for-webhook block the test ends by calling the
 * result's webhook as an outside system would.
 */

interface Received {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

/**
 * A small API on its own origin: CORS for any origin, `POST /items` greets the name it gets;
 * `/held` answers only when the test calls `release()`, so a request can be in flight at a reload.
 */
function startApi(): Promise<{
  server: Server
  origin: string
  received: Received[]
  count(method: string, url: string): number
  release(): void
}> {
  const received: Received[] = []
  const held: ServerResponse[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body })
      response.setHeader('Access-Control-Allow-Origin', request.headers.origin ?? '*')
      if (request.method === 'OPTIONS') {
        response.setHeader('Access-Control-Allow-Methods', 'GET, POST')
        response.setHeader('Access-Control-Allow-Headers', 'content-type, x-flow')
        return response.writeHead(204).end()
      }
      if (request.url === '/held') return void held.push(response)
      const name = (JSON.parse(body || '{}') as { name?: string }).name
      response.writeHead(201, { 'Content-Type': 'application/json' }).end(JSON.stringify({ greeting: `Hello ${name}` }))
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        received,
        count: (method, url) => received.filter((request) => request.method === method && request.url === url).length,
        // Those whose page is still there (a reload closed the others) get their answer.
        release: () => {
          for (const response of held.splice(0))
            if (!response.destroyed) response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"greeting":"held"}')
        },
      }),
    ),
  )
}

const text = (id: string, value: string) => ({ id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: value }] }] } })

/** Hi → name → (a `wizz` command returns here) → HTTP request from the browser → wait for a webhook → the end. */
function integrationsFlow(api: string) {
  const mapping = (pairs: Record<string, string>) =>
    Object.entries(pairs).map(([variableId, bodyPath], i) => ({ id: `m${i}`, variableId, bodyPath }))
  return {
    version: '6',
    name: 'Commands and integrations',
    events: [
      { id: 'start', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } },
      { id: 'cmd', type: 'command', outgoingEdgeId: 'ecmd', graphCoordinates: { x: 0, y: 0 }, options: { command: 'wizz' } },
    ],
    variables: ['Name', 'Status', 'Greeting', 'Paid'].map((name) => ({ id: `v${name}`, name })),
    settings: { typingEmulation: { enabled: false }, general: { rememberUser: { isEnabled: true, storage: 'session' } } },
    groups: [
      {
        id: 'g1',
        title: 'Ask',
        blocks: [text('hi', 'Hi!'), { id: 'ask', type: 'text input', outgoingEdgeId: 'e1', options: { variableId: 'vName' } }],
      },
      { id: 'gw', title: 'Wizz', blocks: [text('wizz', 'Wizzzzz'), { id: 'back', type: 'Return' }] },
      {
        id: 'g2',
        title: 'Call',
        blocks: [
          {
            id: 'http',
            type: 'Webhook',
            outgoingEdgeId: 'e2',
            options: {
              isExecutedOnClient: true,
              isCustomBody: true,
              webhook: {
                url: `${api}/items`,
                method: 'POST',
                body: '{"name": "{{Name}}"}',
                headers: [{ id: 'h', key: 'X-Flow', value: 'yes' }],
              },
              responseVariableMapping: mapping({ vStatus: 'statusCode', vGreeting: 'data.greeting' }),
            },
          },
        ],
      },
      {
        id: 'g3',
        title: 'Wait',
        blocks: [
          text('said', 'The API says: {{Greeting}} ({{Status}})'),
          { id: 'wait', type: 'webhook', outgoingEdgeId: 'e3', options: { responseVariableMapping: mapping({ vPaid: 'data.paid' }) } },
        ],
      },
      { id: 'g4', title: 'Done', blocks: [text('paid', 'Payment received: {{Paid}}')] },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } },
      { id: 'ecmd', from: { eventId: 'cmd' }, to: { groupId: 'gw' } },
      { id: 'e1', from: { blockId: 'ask' }, to: { groupId: 'g2' } },
      { id: 'e2', from: { blockId: 'http' }, to: { groupId: 'g3' } },
      { id: 'e3', from: { blockId: 'wait' }, to: { groupId: 'g4' } },
    ],
  }
}

/** Name → a POST to `/held` (its status and data said) → a GET to `/held` (its status said) → the end; remembered. */
function heldRequestsFlow(api: string) {
  const call = (id: string, method: string, next: string, mapping: Array<[string, string]>) => ({
    id,
    type: 'Webhook',
    outgoingEdgeId: next,
    options: {
      isExecutedOnClient: true,
      isCustomBody: true,
      webhook: { url: `${api}/held`, method, ...(method === 'POST' && { body: '{"name": "{{Name}}"}' }) },
      responseVariableMapping: mapping.map(([variableId, bodyPath], i) => ({ id: `${id}${i}`, variableId, bodyPath })),
    },
  })
  return {
    version: '6',
    name: 'Requests in flight at a reload',
    events: [{ id: 'start', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } }],
    variables: ['Name', 'Status', 'Data', 'Got'].map((name) => ({ id: `v${name}`, name })),
    settings: { typingEmulation: { enabled: false }, general: { rememberUser: { isEnabled: true, storage: 'session' } } },
    groups: [
      {
        id: 'g1',
        title: 'Ask',
        blocks: [text('ready', 'Your name?'), { id: 'ask', type: 'text input', outgoingEdgeId: 'e1', options: { variableId: 'vName' } }],
      },
      {
        id: 'g2',
        title: 'Post',
        blocks: [
          call('post', 'POST', 'e2', [
            ['vStatus', 'statusCode'],
            ['vData', 'data'],
          ]),
        ],
      },
      { id: 'g3', title: 'Get', blocks: [text('posted', 'POST: {{Status}} {{Data}}'), call('get', 'GET', 'e3', [['vGot', 'statusCode']])] },
      { id: 'g4', title: 'Done', blocks: [text('got', 'GET: {{Got}}')] },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'start' }, to: { groupId: 'g1' } },
      { id: 'e1', from: { blockId: 'ask' }, to: { groupId: 'g2' } },
      { id: 'e2', from: { blockId: 'post' }, to: { groupId: 'g3' } },
      { id: 'e3', from: { blockId: 'get' }, to: { groupId: 'g4' } },
    ],
  }
}

let api: Awaited<ReturnType<typeof startApi>>
const FLOW_FILE = 'commands-and-integrations.json'
const HELD_FILE = 'requests-in-flight.json'
const suite = useBrowserSuite(async () => {
  api = await startApi()
  const folder = mkdtempSync(join(tmpdir(), 'flow-chat-integrations-'))
  writeFileSync(join(folder, FLOW_FILE), JSON.stringify(integrationsFlow(api.origin)))
  writeFileSync(join(folder, HELD_FILE), JSON.stringify(heldRequestsFlow(api.origin)))
  return [join(folder, FLOW_FILE), join(folder, HELD_FILE)]
})
afterAll(() => new Promise<void>((resolve) => api.server.close(() => resolve())))

/** The `flowchat:*` events the page gets (from each load on: call before `goto`). */
async function recordEvents(page: Page): Promise<() => Promise<Array<{ type: string; detail: Record<string, unknown> }>>> {
  await page.addInitScript(() => {
    const events: unknown[] = ((window as unknown as { flowEvents: unknown[] }).flowEvents = [])
    for (const type of ['flowchat:start', 'flowchat:error', 'flowchat:log', 'flowchat:end']) {
      document.addEventListener(type, (event) => events.push({ type, detail: (event as CustomEvent).detail }))
    }
  })
  return () =>
    page.evaluate(() => (window as unknown as { flowEvents: Array<{ type: string; detail: Record<string, unknown> }> }).flowEvents)
}

const sendCommand = (page: Page, name: string) =>
  page.evaluate(async (command) => {
    try {
      await document.querySelector('flow-chat')!.sendCommand(command)
      return { ok: true }
    } catch (error) {
      const { code, status, message } = error as { code: string; status?: number; message: string }
      return { ok: false, code, status, message }
    }
  }, name)

async function webhook(resultId: string, body: unknown): Promise<number> {
  const flow = suite.service.flows[FLOW_FILE]!
  const response = await fetch(`${suite.service.origin}/v1/flows/${flow.id}/results/${resultId}/webhook`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${suite.service.secretToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  return response.status
}

describe('commands, HTTP requests from the browser and webhook waits in Chromium', () => {
  it('runs a command event, refuses an unknown one without a change, calls an API over CORS, waits for a webhook across a reload', async () => {
    const page = await suite.newPage()
    const errors = trackErrors(page)
    // The API is another origin on plain http: the test page's CSP (connect-src 'self' https:) would block it.
    const events = await recordEvents(page)
    await page.goto(suite.service.pageUrl(suite.service.flows[FLOW_FILE]!, { csp: false }))
    const c = chat(page)
    await c.host('Hi!').waitFor()
    await c.input.fill('Ad')

    // A known command: its path runs, and its Return brings the input back with what was typed.
    expect(await sendCommand(page, 'wizz')).toEqual({ ok: true })
    await c.host('Wizzzzz').waitFor()
    await expect.poll(() => c.input.inputValue()).toBe('Ad')

    // An unknown command: the service refuses it (400), the page hears why, the chat is as it was.
    const bubbles = await c.hostBubbles.count()
    expect(await sendCommand(page, 'nope')).toMatchObject({ ok: false, code: 'command-rejected', status: 400 })
    expect((await events()).filter((event) => event.type === 'flowchat:error')).toEqual([
      { type: 'flowchat:error', detail: expect.objectContaining({ code: 'command-rejected', status: 400 }) },
    ])
    expect(await c.hostBubbles.count()).toBe(bubbles)
    expect(await c.input.inputValue()).toBe('Ad')

    // The HTTP request block runs in this browser: to the API's origin, without cookies, its answer mapped.
    await c.say('Ada')
    await c.host('The API says: Hello Ada (201)').waitFor()
    const posted = api.received.find((request) => request.method === 'POST' && request.url === '/items')!
    expect(posted).toMatchObject({
      url: '/items',
      body: '{"name":"Ada"}',
      headers: expect.objectContaining({ 'x-flow': 'yes', origin: suite.service.host.origin }),
    })
    expect(posted.headers.cookie).toBeUndefined()

    // The wait: said on screen and in the live region, the field disabled, accessible.
    const waiting = c.root.locator('[part~="waiting"]')
    await waiting.waitFor()
    expect(await waiting.textContent()).toContain('Waiting for an update')
    expect(await c.root.locator('[part~="live-region"]').textContent()).toContain('Waiting for an update')
    expect(await c.input.isDisabled()).toBe(true)
    expect(await axeViolations(page)).toEqual([])

    // Commands still work while waiting; the Return comes back to a wait.
    expect(await sendCommand(page, 'wizz')).toEqual({ ok: true })
    await expect.poll(() => c.root.locator('[part~="host-bubble"]', { hasText: 'Wizzzzz' }).count()).toBe(2)
    await waiting.waitFor()

    // A reload of this remembered conversation waits again, and the webhook call goes on with it.
    const start = (await events()).find((event) => event.type === 'flowchat:start')!
    await page.reload()
    await c.host('The API says: Hello Ada (201)').waitFor()
    await waiting.waitFor()
    expect((await events()).find((event) => event.type === 'flowchat:start')?.detail).toMatchObject({
      resultId: start.detail.resultId,
      resumed: true,
    })
    expect(await webhook(String(start.detail.resultId), { paid: 'yes' })).toBe(200)
    await c.host('Payment received: yes').waitFor()
    await expect.poll(async () => (await events()).some((event) => event.type === 'flowchat:end')).toBe(true)
    await expect.poll(() => waiting.count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    // Chromium reports every 4xx in the console: the one refusal this test asked for is expected.
    expect(errors.filter((error) => !/status of 400 .*\/continueChat\)$/.test(error))).toEqual([])
    expect(errors).toHaveLength(1)
  }, 90_000)

  it('a reload while a request is in flight: a POST is received once (the flow gets the failure), a GET is sent again', async () => {
    const page = await suite.newPage()
    const errors = trackErrors(page)
    const events = await recordEvents(page)
    await page.goto(suite.service.pageUrl(suite.service.flows[HELD_FILE]!, { csp: false }))
    const c = chat(page)
    await c.host('Your name?').waitFor()
    await c.say('Ada')
    await expect.poll(() => api.count('POST', '/held')).toBe(1)
    await page.reload()
    // Not sent again: the flow got the failure a request without an answer gets, and the page heard why.
    await c.host(/^POST: 500 /).waitFor()
    expect(await c.host(/^POST: 500 /).textContent()).toContain(
      'The page was reloaded while this POST request was in flight, so it was not sent twice',
    )
    expect((await events()).filter((event) => event.type === 'flowchat:error')).toEqual([
      { type: 'flowchat:error', detail: expect.objectContaining({ code: 'http-request-failed', retryable: false }) },
    ])

    // The GET goes out, the page reloads, and it is sent again: its answer reaches the flow.
    await expect.poll(() => api.count('GET', '/held')).toBe(1)
    await page.reload()
    await expect.poll(() => api.count('GET', '/held')).toBe(2)
    api.release()
    await c.host('GET: 200').waitFor()
    await expect.poll(async () => (await events()).some((event) => event.type === 'flowchat:end')).toBe(true)
    expect(api.count('POST', '/held')).toBe(1)
    expect(await axeViolations(page)).toEqual([])
    expect(errors).toEqual([])
  }, 90_000)
})
