import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { animationsSettled, attributes, openEmbedPage, sessionCount } from './embed/embed-test-pages'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, trackErrors } from './helpers/chat-page'
import { type PublishedTestFlow, SHARED_FLOWS_DIR, TEST_FLOWS_DIR } from './helpers/test-service'

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'theme-variant.json'), join(SHARED_FLOWS_DIR, 'tpl-nps.json')])
let page: Page
let themed: PublishedTestFlow
let nps: PublishedTestFlow

beforeAll(() => {
  themed = suite.service.flows['theme-variant.json']!
  nps = suite.service.flows['tpl-nps.json']!
})

const dataScript = (flow: PublishedTestFlow, extra: Record<string, string> = {}) =>
  `<script src="{script}" defer ${attributes({ 'data-flow': flow.id, 'data-api-host': suite.service.origin, 'data-token': suite.service.publishableToken, ...extra })}></script>`

describe('classic script tag with data attributes only', () => {
  it('embeds an inline chat right where the tag is', async () => {
    page = await suite.newPage()
    const errors = trackErrors(page)
    await openEmbedPage(page, suite.service, 'tag-standard', `<p id="before">Before</p>${dataScript(themed)}<p id="after">After</p>`)
    const chatBox = page.locator('#before ~ flow-chat')
    await chatBox.locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    expect(await page.locator('flow-chat + #after').count()).toBe(1)
    await animationsSettled(page)
    expect(await axeViolations(page)).toEqual([])
    expect(errors).toEqual([])
  })

  it('embeds a bubble or a popup from data-mode, with their options', async () => {
    page = await suite.newPage()
    const errors = trackErrors(page)
    const before = await sessionCount(suite.service, nps.id)
    await openEmbedPage(
      page,
      suite.service,
      'tag-modes',
      dataScript(themed, { 'data-mode': 'bubble', 'data-label': 'Colours', 'data-placement': 'left' }) +
        dataScript(nps, { 'data-mode': 'popup', 'data-label': 'Survey', 'data-auto-show-delay': '200' }),
    )
    const popup = page.getByRole('dialog', { name: 'Survey' })
    await popup.locator('[part~="host-bubble"]', { hasText: /can I ask you 2 questions/ }).waitFor()
    expect(await sessionCount(suite.service, nps.id)).toBe(before + 1)
    await page.keyboard.press('Escape')
    await popup.waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'Open chat: Colours' }).click()
    await page.getByRole('dialog', { name: 'Colours' }).locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    expect(await page.locator('flow-chat-bubble[placement="left"]').count()).toBe(1)
    expect(errors).toEqual([])
  })
})

type Handle = {
  open(): void
  close(): void
  toggle(): void
  reset(): void
  setPrefilledVariables(v: object): void
  unmount(): void
  showPreviewMessage?(t?: string): void
}
type Api = Record<'initStandard' | 'initBubble' | 'initPopup', (options: object) => Handle>

describe('the FlowChat global', () => {
  it('gives each instance its own handle: commands reach only their target', async () => {
    page = await suite.newPage()
    const errors = trackErrors(page)
    const themedBefore = await sessionCount(suite.service, themed.id)
    const npsBefore = await sessionCount(suite.service, nps.id)
    await openEmbedPage(page, suite.service, 'api', '<script src="{script}" defer></script><div id="slot"></div>')
    await page.waitForFunction(() => 'FlowChat' in window)
    const config = { apiHost: suite.service.origin, token: suite.service.publishableToken }
    await page.evaluate(
      ({ config, themedId, npsId }) => {
        const api = (window as unknown as { FlowChat: Api }).FlowChat
        const handles = {
          left: api.initBubble({ ...config, flow: themedId, placement: 'left', label: 'Left' }),
          right: api.initBubble({ ...config, flow: npsId, label: 'Right', previewMessage: 'Hello from the right' }),
          popup: api.initPopup({ ...config, flow: themedId, label: 'Modal' }),
          inline: api.initStandard({ ...config, flow: npsId, container: '#slot' }),
        }
        ;(window as unknown as { handles: typeof handles }).handles = handles
      },
      { config, themedId: themed.id, npsId: nps.id },
    )
    const command = (name: string, method: string, arg?: unknown) =>
      page.evaluate(
        ({ name, method, arg }) => {
          const handle = (window as unknown as { handles: Record<string, Record<string, (a?: unknown) => void>> }).handles[name]!
          handle[method]!(arg)
        },
        { name, method, arg },
      )

    // Only the inline chat starts on load.
    await page.locator('#slot flow-chat [part~="host-bubble"]', { hasText: /can I ask you 2 questions/ }).waitFor()
    await page.getByRole('button', { name: 'Hello from the right' }).waitFor()
    expect(await sessionCount(suite.service, themed.id)).toBe(themedBefore)
    expect(await sessionCount(suite.service, nps.id)).toBe(npsBefore + 1)

    await command('left', 'open')
    const left = page.getByRole('dialog', { name: 'Left' })
    await left.locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    expect(await page.getByRole('dialog', { name: 'Right' }).isVisible()).toBe(false)
    expect(await page.getByRole('dialog', { name: 'Modal' }).isVisible()).toBe(false)
    expect(await sessionCount(suite.service, themed.id)).toBe(themedBefore + 1)
    await animationsSettled(page)
    expect(await axeViolations(page)).toEqual([])

    // Typing and sending through the handle answers in that chat only.
    await page.evaluate(async () => {
      const { left } = (
        window as unknown as { handles: Record<string, { setInputValue(v: string): boolean; submitInput(): Promise<boolean> }> }
      ).handles
      if (!left!.setInputValue('green') || !(await left!.submitInput())) throw new Error('the left bubble had no input waiting')
    })
    await left.locator('[part~="host-bubble"]', { hasText: 'Favourite food?' }).waitFor()
    expect(await left.locator('[part~="guest-bubble"]').allTextContents()).toEqual(['green'])
    expect(await page.locator('#slot flow-chat [part~="guest-bubble"]').count()).toBe(0)

    await command('right', 'hidePreviewMessage')
    await page.getByRole('button', { name: 'Hello from the right' }).waitFor({ state: 'hidden' })
    await command('left', 'toggle')
    await left.waitFor({ state: 'hidden' })

    await command('popup', 'setPrefilledVariables', { Name: 'Ada' })
    await command('popup', 'open')
    await page.getByRole('dialog', { name: 'Modal' }).locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    expect(await sessionCount(suite.service, themed.id)).toBe(themedBefore + 2)
    await animationsSettled(page)
    expect(await axeViolations(page)).toEqual([])
    await command('popup', 'close')

    await command('inline', 'unmount')
    expect(await page.locator('#slot flow-chat').count()).toBe(0)
    await command('right', 'unmount')
    expect(await page.locator('flow-chat-bubble').count()).toBe(1)
    expect(errors).toEqual([])
  })

  it('is exported the same by the module build, which defines no global', async () => {
    page = await suite.newPage()
    const errors = trackErrors(page)
    await openEmbedPage(page, suite.service, 'module', '<script type="module" src="{module}"></script>')
    await page.waitForFunction(() => customElements.get('flow-chat-popup') !== undefined)
    // A string, not a function: vitest would rewrite a function's `import()` for Node.
    const options = JSON.stringify({
      flow: themed.id,
      apiHost: suite.service.origin,
      token: suite.service.publishableToken,
      label: 'From the module',
    })
    const opened = await page.evaluate(`(async () => {
      const library = await import(${JSON.stringify(suite.service.script.replace(/\.js$/, '.mjs'))})
      library.initPopup(${options}).open()
      return 'FlowChat' in window
    })()`)
    expect(opened).toBe(false)
    await page.getByRole('dialog', { name: 'From the module' }).locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    expect(errors).toEqual([])
  })

  it('reports a missing flow clearly', async () => {
    page = await suite.newPage()
    await openEmbedPage(page, suite.service, 'api-bad', '<script src="{script}" defer></script>')
    await page.waitForFunction(() => 'FlowChat' in window)
    const message = await page.evaluate(() => {
      try {
        ;(window as unknown as { FlowChat: Api }).FlowChat.initBubble({})
        return 'no error'
      } catch (error) {
        return (error as Error).message
      }
    })
    expect(message).toMatch(/`flow` option/)
  })
})
