import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { apiOf } from './admin/console-page'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { TEST_FLOWS_DIR } from './helpers/test-service'

/**
 * A reload in the middle of a live conversation, with a flow that remembers its visitors: the
 * page comes back to the same conversation with the same person, every line of it shown once,
 * and lines written while the page was away arrive once too; the conversation goes on both
 * ways and the flow after it, on the one session it started with.
 */
const FLOW = 'handoff-remember.json'
const AGENT = 'Grace Hopper'
const suite = useBrowserSuite([join(TEST_FLOWS_DIR, FLOW)])

type Listed = { handoffs: Array<{ id: string; resultId: string }> }
type Detail = { events: Array<{ type: string; author?: string; text?: string }> }

describe('a reload while a person is on the conversation', () => {
  it('puts the visitor back in the same live conversation, nothing lost and nothing shown twice', async () => {
    const owner = apiOf(suite.service.origin, suite.service.secretToken)
    const made = await owner<{ value: string }>('POST', '/v1/tokens', { kind: 'agent', agent: { name: AGENT } })
    expect(made.status).toBe(200)
    const person = apiOf(suite.service.origin, made.json.value)

    const page = await suite.newPage()
    const errors = trackErrors(page)
    const starts: string[] = []
    page.on('request', (request) => {
      if (request.url().endsWith('/startChat')) starts.push(request.url())
    })
    const widget = chat(page)
    await page.goto(suite.service.pageUrl(suite.service.flows[FLOW]!))
    await widget.root.getByRole('status').getByText('Waiting for a person…').waitFor()

    let handoff: Listed['handoffs'][number] | undefined
    while (!handoff) handoff = (await person<Listed>('GET', '/v1/handoffs?status=waiting')).json.handoffs[0]
    expect((await person('POST', `/v1/handoffs/${handoff.id}/claim`)).status).toBe(200)
    await widget.root.getByText(`You are chatting with ${AGENT}.`).waitFor()
    expect((await person('POST', `/v1/handoffs/${handoff.id}/messages`, { text: 'Hello, how can I help?' })).status).toBe(201)
    const agentBubbles = widget.root.locator('[part~="agent-bubble"]')
    await agentBubbles.filter({ hasText: 'Hello, how can I help?' }).waitFor()
    const field = widget.root.getByRole('textbox', { name: 'Write a message…' })
    await field.fill('My parcel is late.')
    await field.press('Enter')
    await expect
      .poll(async () => {
        const detail = await person<Detail>('GET', `/v1/handoffs/${handoff!.id}`)
        return detail.json.events.filter((event) => event.type === 'message' && event.author === 'visitor').map((event) => event.text)
      })
      .toEqual(['My parcel is late.'])

    // The page goes away; the person writes meanwhile; the page comes back.
    const reloaded = page.reload({ waitUntil: 'commit' })
    expect((await person('POST', `/v1/handoffs/${handoff.id}/messages`, { text: 'Let me look it up.' })).status).toBe(201)
    await reloaded
    // Named, even when nothing the person did came after the reload.
    await widget.root.getByText(`You are chatting with ${AGENT}.`).waitFor()
    await agentBubbles.filter({ hasText: 'Let me look it up.' }).waitFor()
    expect(await agentBubbles.allTextContents()).toEqual([
      expect.stringContaining('Hello, how can I help?'),
      expect.stringContaining('Let me look it up.'),
    ])
    expect(await widget.root.locator('[part~="guest-bubble"]', { hasText: 'My parcel is late.' }).count()).toBe(1)
    expect(await widget.root.locator('[part~="host-bubble"]', { hasText: 'Hello! Let me find someone from the team.' }).count()).toBe(1)
    expect(await axeViolations(page)).toEqual([])

    // The same conversation goes on both ways.
    expect((await person('POST', `/v1/handoffs/${handoff.id}/messages`, { text: 'It arrives tomorrow.' })).status).toBe(201)
    await agentBubbles.filter({ hasText: 'It arrives tomorrow.' }).waitFor()
    await field.fill('Thank you!')
    await field.press('Enter')
    await expect
      .poll(async () => {
        const detail = await person<Detail>('GET', `/v1/handoffs/${handoff!.id}`)
        return detail.json.events.filter((event) => event.type === 'message').map((event) => `${event.author}: ${event.text}`)
      })
      .toEqual([
        'agent: Hello, how can I help?',
        'visitor: My parcel is late.',
        'agent: Let me look it up.',
        'agent: It arrives tomorrow.',
        'visitor: Thank you!',
      ])
    expect(await agentBubbles.count()).toBe(3)

    // The person ends it and the flow goes on, on the session the visitor started with.
    expect((await person('POST', `/v1/handoffs/${handoff.id}/variables`, { name: 'Order', value: 'C-7' })).status).toBe(200)
    expect((await person('POST', `/v1/handoffs/${handoff.id}/end`)).status).toBe(200)
    await widget.host('Thanks for talking to us about order C-7. Bye!').waitFor()
    expect(starts).toHaveLength(1)
    expect(await widget.root.locator('[part~="guest-bubble"]', { hasText: 'Thank you!' }).count()).toBe(1)
    expect(errors).toEqual([])
  })
})
