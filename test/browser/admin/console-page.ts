import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll } from 'vitest'
import { hashToken, newId, newToken } from '../../../src/service/ids'
import { type BrowserSuite, useBrowserSuite } from '../helpers/browser-suite'
import { trackErrors } from '../helpers/chat-page'
import { TEST_FLOWS_DIR } from '../helpers/test-service'

/** The flow the console tests manage: a choice (Plan), then a rating (Score), then thanks. */
export const CONSOLE_FLOW = 'cross-site.json'
export const readConsoleFlow = () =>
  JSON.parse(readFileSync(join(TEST_FLOWS_DIR, CONSOLE_FLOW), 'utf8')) as Record<string, unknown> & {
    groups: Array<{ blocks: Array<{ content?: { richText?: Array<{ children: Array<{ text: string }> }> } }> }>
  }

/** The flow's name, as the console lists it. */
export const CONSOLE_FLOW_NAME = 'Cross-site'

export interface ConsoleSuite {
  suite: BrowserSuite
  origin: string
  flowId: string
  /** The API with the workspace owner's secret token. */
  owner: ReturnType<typeof apiOf>
}

/**
 * A service with the console flow published, its completion webhook set (to an address that
 * cannot be reached: deliveries are listed with their errors), and `results` conversations, every
 * other one choosing Team, all but the last completed.
 */
export function useConsoleSuite(results: number): ConsoleSuite {
  const suite = useBrowserSuite([join(TEST_FLOWS_DIR, CONSOLE_FLOW)])
  const context = { suite } as ConsoleSuite
  beforeAll(async () => {
    context.origin = suite.service.origin
    context.flowId = suite.service.flows[CONSOLE_FLOW]!.id
    context.owner = apiOf(context.origin, suite.service.secretToken)
    await context.owner('PUT', `/v1/flows/${context.flowId}/webhook`, { url: 'https://hooks.example.invalid/results' })
    for (let i = 0; i < results; i++)
      await answerFlow(context.origin, context.flowId, i % 2 ? 'Team' : 'Starter', i < results - 1 ? String((i % 5) + 1) : undefined)
  }, 120_000)
  return context
}

/** A secret token of another workspace, made as an operator would (stored hash only). */
export async function secretOf(context: ConsoleSuite, workspaceId: string): Promise<string> {
  const value = newToken('secret')
  const store = context.suite.service.store()
  await store.workspaces.ensure(workspaceId, workspaceId, new Date())
  await store.tokens.insert({ id: newId(), workspaceId, kind: 'secret', tokenHash: hashToken(value), label: 'test', createdAt: new Date() })
  return value
}

/**
 * The page's errors, but for the browser's note on API answers a test provokes on purpose (a
 * publishable token refused, a file that is not a flow): the console shows those itself.
 */
export function consoleErrors(page: Page): () => string[] {
  const errors = trackErrors(page)
  return () => errors.filter((error) => !/status of 40[03] .*\/v1\//.test(error))
}

/** Calls the service's API as an owner would with curl (no browser). */
export function apiOf(origin: string, token: string) {
  return async <T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, json: (await response.json()) as T }
  }
}

/** A visitor's whole conversation with the console flow, through the chat API. */
export async function answerFlow(origin: string, flowId: string, plan: string, score?: string): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as { sessionId: string; resultId: string }
  }
  const started = await post(`/v1/flows/${flowId}/startChat`, {})
  await post(`/v1/sessions/${started.sessionId}/continueChat`, { message: plan })
  if (score) await post(`/v1/sessions/${started.sessionId}/continueChat`, { message: score })
  return started.resultId
}

/** Signs in with the keyboard only: the token typed, Enter pressed. */
export async function signIn(page: Page, origin: string, token: string): Promise<void> {
  await page.goto(`${origin}/admin`)
  await page.getByLabel('Secret token').focus()
  await page.keyboard.type(token)
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { name: 'Flows' }).waitFor()
}

/** Opens a flow's panel from the list, by keyboard. */
export async function openFlow(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${name}`) }).focus()
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { level: 2, name }).waitFor()
}

/**
 * A new page of the console signed in (with the workspace owner's secret token unless another is
 * given), at `viewport` when given, with `flow`'s panel open when one is named.
 */
export async function consolePage(
  context: ConsoleSuite,
  options: { token?: string; flow?: string; viewport?: { width: number; height: number } } = {},
): Promise<Page> {
  const page = await context.suite.newPage()
  if (options.viewport) await page.setViewportSize(options.viewport)
  await signIn(page, context.origin, options.token ?? context.suite.service.secretToken)
  if (options.flow) await openFlow(page, options.flow)
  return page
}

/**
 * Pastes a publishable token the workspace already has (the console cannot read its value),
 * unless this browser already remembers it for the workspace; one remembered in its place is
 * set aside first ("Use another").
 */
export async function usePublishable(page: Page, value: string): Promise<void> {
  const field = page.getByRole('textbox', { name: 'Publishable token' })
  const remembered = page.getByText(/carry the publishable token .*, remembered in this browser/)
  await field.or(remembered).first().waitFor()
  if (await remembered.count()) {
    if ((await remembered.textContent())?.includes(`…${value.slice(-4)},`)) return
    await page.getByRole('button', { name: 'Use another' }).click()
  }
  await field.fill(value)
  await page.getByRole('button', { name: 'Use it' }).click()
  await remembered.waitFor()
}

/** What the live region last said. */
export const announced = (page: Page) => page.getByRole('status')
