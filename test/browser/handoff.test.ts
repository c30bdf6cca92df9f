import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { apiOf } from './admin/console-page'
import { expectCleanWalk } from './embed/cross-site-walk'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { type LaunchedBrowser, launchChromium } from './helpers/chromium'
import { type LaunchedFirefox, launchFirefox } from './helpers/firefox'
import { TEST_FLOWS_DIR } from './helpers/test-service'
import { adaptPlaywright, adaptPuppeteer, type WalkPage } from './helpers/walk'

/**
 * A person takes over, end to end: the visitor's page on the site owner's site (another origin
 * than the service, under its strict CSP) runs a flow into its `handoff` block; a person of the
 * team, signed in to the console with an agent token in a browser of their own, sees the
 * conversation arrive in the inbox, claims it, and the two write to each other (each sees the
 * other typing); the person sets a variable and ends it, and the flow goes on to its end in the
 * widget. The result and its CSV export hold the whole conversation, the part with the person
 * included. The same walk runs in Firefox, the person's console in a Firefox context of its own.
 */
const FLOW = 'handoff.json'
const FLOW_NAME = 'Parcel help'
const AGENT = 'Ada Lovelace'
const suite = useBrowserSuite([join(TEST_FLOWS_DIR, FLOW)])

/** Records, from the first script on, what the widget's live region says (what a screen reader hears). */
const HEAR = `(() => {
  const heard = (window.__heard = [])
  const watch = () => {
    const region = document.querySelector('flow-chat')?.shadowRoot?.querySelector('[part~="live-region"]')
    if (!region) return requestAnimationFrame(watch)
    new MutationObserver((records) => {
      for (const record of records) for (const node of Array.from(record.addedNodes)) heard.push(node.textContent ?? '')
    }).observe(region, { childList: true })
  }
  requestAnimationFrame(watch)
})()`
const heard = (walk: WalkPage) => walk.evaluate<string[]>('window.__heard')
const agentLines = (lines: string[]) => lines.filter((line) => line.startsWith(`${AGENT}:`))

interface ResultDetail {
  result: { conversation?: Array<{ author: string; text: string; agent?: { name: string } }> }
}

/** What the team reads of the conversation afterwards: the result detail and the CSV export. */
async function expectConversationKept(resultId: string, lines: Array<[string, string]>) {
  const owner = apiOf(suite.service.origin, suite.service.secretToken)
  const flowId = suite.service.flows[FLOW]!.id
  const detail = await owner<ResultDetail>('GET', `/v1/flows/${flowId}/results/${resultId}`)
  expect(detail.status).toBe(200)
  expect(detail.json.result.conversation?.map((line) => [line.author, line.text])).toEqual(lines)
  const response = await fetch(`${suite.service.origin}/v1/flows/${flowId}/results/export?format=csv`, {
    headers: { Authorization: `Bearer ${suite.service.secretToken}` },
  })
  expect(response.status).toBe(200)
  const csv = await response.text()
  const [header] = csv.split('\r\n')
  expect(header).toContain('Conversation with a person')
  const row = csv.split('\r\n').find((line) => line.includes(resultId)) ?? csv
  // The flow's part (its answers' columns) and the live part, in the result's row.
  for (const [author, text] of lines) expect(row).toContain(`${author === 'agent' ? AGENT : 'Visitor'}: ${text}`)
}

/** A new agent token of the workspace, made through the API as its owner would. */
async function agentToken(): Promise<string> {
  const owner = apiOf(suite.service.origin, suite.service.secretToken)
  const made = await owner<{ value: string }>('POST', '/v1/tokens', { kind: 'agent', agent: { name: AGENT } })
  expect(made.status).toBe(200)
  return made.json.value
}

describe('a conversation handed to a person, in Chromium', () => {
  let agentBrowser: LaunchedBrowser
  beforeAll(async () => {
    agentBrowser = await launchChromium()
  })
  afterAll(() => agentBrowser?.close())

  it('reaches the inbox, goes live both ways with typing shown, and comes back to the flow, all of it kept in the result', async () => {
    const token = await agentToken()

    // The person, in the console in a browser of their own.
    const inbox: Page = await agentBrowser.context.newPage()
    const inboxErrors = trackErrors(inbox)
    await inbox.goto(`${suite.service.origin}/admin`)
    await inbox.getByLabel('Secret token or agent token').fill(token)
    await inbox.keyboard.press('Enter')
    await inbox.getByRole('heading', { level: 1, name: 'Team inbox' }).waitFor()
    await inbox.getByText('Up to date').waitFor()

    // The visitor, on the owner's site.
    const page = await suite.newPage()
    await page.addInitScript({ content: HEAR })
    const walk = await adaptPlaywright(page)
    const widget = chat(page)
    await walk.goto(suite.service.pageUrl(suite.service.flows[FLOW]!))
    await widget.host('One moment, a person will answer here.').waitFor()
    await widget.root.getByRole('status').getByText('Waiting for a person…').waitFor()
    const waitingSince = Date.now()
    // The inbox hears of it by its stream, without a reload (the figure is printed, not asserted).
    const entry = inbox.getByRole('button', { name: new RegExp(`New ${FLOW_NAME}`) })
    await entry.waitFor()
    globalThis.console.info(`[handoff] waiting in the widget → listed in the inbox: ${Date.now() - waitingSince} ms`)
    expect(await axeViolations(page)).toEqual([])
    expect(await axeViolations(inbox)).toEqual([])
    await entry.click()
    await inbox.getByRole('button', { name: 'Claim the conversation' }).click()
    await widget.root.getByText(`You are chatting with ${AGENT}.`).waitFor()

    // The visitor writes: the person sees them typing, then the message.
    const field = widget.root.getByRole('textbox', { name: 'Write a message…' })
    await field.pressSequentially('Where is my parcel?')
    await inbox.locator('p.typing', { hasText: 'The visitor is typing…' }).waitFor()
    await field.press('Enter')
    const transcript = inbox.getByRole('region', { name: 'Transcript' })
    await transcript.getByText('Where is my parcel?').waitFor()

    // The person writes back: the visitor sees them typing, then each line, announced once.
    const reply = inbox.getByLabel('Reply to the visitor')
    await reply.pressSequentially('It left our warehouse today.')
    await widget.root.locator('[part~="agent-typing"]', { hasText: `${AGENT} is typing…` }).waitFor()
    await reply.press('Enter')
    await widget.root.locator('[part~="agent-bubble"]', { hasText: 'It left our warehouse today.' }).waitFor()
    await reply.fill('It should arrive **tomorrow**.')
    await reply.press('Enter')
    await widget.root.locator('[part~="agent-bubble"] strong', { hasText: 'tomorrow' }).waitFor()
    expect(await axeViolations(inbox)).toEqual([])

    // The person notes the order and ends the conversation; the flow goes on with it.
    const handoffs = apiOf(suite.service.origin, token)
    const listed = await handoffs<{ handoffs: Array<{ id: string; resultId: string }> }>('GET', '/v1/handoffs?status=live')
    const [handoff] = listed.json.handoffs
    expect((await handoffs('POST', `/v1/handoffs/${handoff!.id}/variables`, { name: 'Order', value: 'A-1234' })).status).toBe(200)
    await inbox.getByRole('button', { name: 'End the conversation' }).click()
    await inbox.getByRole('button', { name: 'End it' }).click()
    await widget.host('Thanks for talking to us about order A-1234. Bye!').waitFor()
    await expectCleanWalk(walk)
    expect(agentLines(await heard(walk))).toEqual([`${AGENT}: It left our warehouse today.`, `${AGENT}: It should arrive tomorrow.`])
    expect(inboxErrors).toEqual([])
    await inbox.close()

    await expectConversationKept(handoff!.resultId, [
      ['visitor', 'Where is my parcel?'],
      ['agent', 'It left our warehouse today.'],
      ['agent', 'It should arrive **tomorrow**.'],
    ])
  })
})

describe('a conversation handed to a person, in Firefox', () => {
  let firefox: LaunchedFirefox
  const closing: Array<{ close(): Promise<void> }> = []
  beforeAll(async () => {
    firefox = await launchFirefox()
  })
  afterEach(async () => {
    for (const item of closing.splice(0).reverse()) await item.close()
  })
  afterAll(() => firefox?.close())

  it('reaches the inbox, goes live both ways with typing shown, and comes back to the flow, the person in the console in Firefox too', async () => {
    const token = await agentToken()

    // The person, in the console in a browser context of their own (its own cookies and storage).
    const team = await firefox.browser.createBrowserContext()
    closing.push(team)
    const inbox = await team.newPage()
    const desk = await adaptPuppeteer(inbox)
    await desk.goto(`${suite.service.origin}/admin`)
    await inbox.type('#secret-token', token)
    await inbox.keyboard.press('Enter')
    await desk.waitFor('h1', 'Team inbox')
    await desk.waitFor('p.connection', 'Up to date')

    // The visitor, on the owner's site.
    const page = await firefox.browser.newPage()
    closing.push(page)
    await page.evaluateOnNewDocument(HEAR)
    const walk = await adaptPuppeteer(page)
    await walk.goto(suite.service.pageUrl(suite.service.flows[FLOW]!))
    await walk.waitFor('[part~="host-bubble"]', 'One moment, a person will answer here.')
    await walk.waitFor('[part~="handoff-status"]', 'Waiting for a person…')
    const entry = new RegExp(`New ${FLOW_NAME}`)
    await desk.waitFor('button.conversation', entry)
    expect(await axeViolations(page)).toEqual([])
    expect(await axeViolations(inbox)).toEqual([])
    await desk.click('button.conversation', entry)
    await desk.click('button', 'Claim the conversation')
    await walk.waitFor('[part~="handoff-status"]', `You are chatting with ${AGENT}.`)

    // The visitor writes: the person sees them typing, then the message.
    const field = page.locator('flow-chat >>> [part~="handoff"] [part~="input"]')
    await field.fill('Where is my parcel?')
    await desk.waitFor('p.typing', 'The visitor is typing…')
    await page.keyboard.press('Enter')
    await desk.waitFor('.transcript .said', 'Where is my parcel?')

    // The person writes back: the visitor sees them typing, then the line, announced once.
    await inbox.type('#reply-text', 'It left our warehouse today.')
    await walk.waitFor('[part~="agent-typing"]', `${AGENT} is typing…`)
    await inbox.keyboard.press('Enter')
    await walk.waitFor('[part~="agent-bubble"]', /It left our warehouse today\./)
    expect(await axeViolations(inbox)).toEqual([])

    // The person notes the order in the console and ends the conversation; the flow goes on with it.
    await inbox.type('#variable-value', 'B-42')
    await desk.click('button', 'Set the variable')
    await desk.waitFor('.variables dd', 'B-42')
    await desk.click('button', 'End the conversation')
    await desk.click('button', 'End it')
    await walk.waitFor('[part~="host-bubble"]', 'Thanks for talking to us about order B-42. Bye!')
    await expectCleanWalk(walk)
    expect(agentLines(await heard(walk))).toEqual([`${AGENT}: It left our warehouse today.`])
    expect((await desk.record()).consoleErrors).toEqual([])

    const person = apiOf(suite.service.origin, token)
    const ended = await person<{ handoffs: Array<{ resultId: string }> }>('GET', '/v1/handoffs?status=ended')
    await expectConversationKept(ended.json.handoffs[0]!.resultId, [
      ['visitor', 'Where is my parcel?'],
      ['agent', 'It left our warehouse today.'],
    ])
  })
})
