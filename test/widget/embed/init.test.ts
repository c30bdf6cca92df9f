import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { autoEmbed, defineFlowChatLaunchers, initBubble, initPopup, initStandard } from '../../../src/widget/index'
import { fetch, requests } from '../element/launchers/fake-service'

beforeAll(() => defineFlowChatLaunchers({ fetch }))

afterEach(() => {
  document.body.replaceChildren()
  requests.length = 0
  localStorage.clear()
  vi.restoreAllMocks()
})

const COMMON = [
  'close',
  'element',
  'open',
  'reload',
  'reset',
  'sendCommand',
  'setInputValue',
  'setPrefilledVariables',
  'submitInput',
  'toggle',
  'unmount',
]

describe('FlowChat.init*', () => {
  it('give each kind of chat its handle: the same commands, and a bubble its preview ones', () => {
    expect(Object.keys(initStandard({ flow: 'f1' })).sort()).toEqual(COMMON)
    expect(Object.keys(initPopup({ flow: 'f1' })).sort()).toEqual(COMMON)
    expect(Object.keys(initBubble({ flow: 'f1' })).sort()).toEqual([...COMMON, 'hidePreviewMessage', 'showPreviewMessage'].sort())
  })

  it('put an inline chat in its container, where the window commands do nothing, and unmount it', async () => {
    document.body.innerHTML = '<div id="slot"></div>'
    const handle = initStandard({ flow: 'f1', label: 'Help', allowScriptNetwork: true, container: '#slot' })
    expect(handle.element.parentElement?.id).toBe('slot')
    expect([handle.element.label, handle.element.allowScriptNetwork]).toEqual(['Help', true])
    for (const command of ['open', 'close', 'toggle'] as const) expect(handle[command]()).toBeUndefined()
    await vi.waitFor(() => expect(handle.element.shadowRoot?.textContent).toContain('Hello'))
    expect(handle.setInputValue('hi')).toBe(true)
    expect(await handle.submitInput()).toBe(true)
    await vi.waitFor(() => expect(handle.element.shadowRoot?.textContent).toContain('Wizzzzz'))
    handle.unmount()
    expect(document.querySelector('flow-chat')).toBeNull()
  })

  it('take the language, direction, colour scheme and words as options', async () => {
    const handle = initStandard({ flow: 'f1', lang: 'de', dir: 'rtl', colorScheme: 'auto', strings: { send: 'Los' } })
    expect([handle.element.lang, handle.element.dir, handle.element.colorScheme, handle.element.strings]).toEqual([
      'de',
      'rtl',
      'auto',
      { send: 'Los' },
    ])
    await vi.waitFor(() => expect(handle.element.shadowRoot?.querySelector('[part~="send-button"]')?.textContent).toBe('Los'))
    // The page's own word is there at once; the German table as soon as its chunk is.
    await vi.waitFor(() =>
      expect(handle.element.shadowRoot?.querySelector('[part~="input"]')?.getAttribute('placeholder')).toBe('Antwort eingeben…'),
    )
  })

  it('throw at once, adding nothing, without a flow or with a container that is not on the page', () => {
    expect(() => initPopup({} as { flow: string })).toThrow(/`flow` option/)
    expect(() => initStandard({ flow: 'f1', container: '#nowhere' })).toThrow('FlowChat: no element matches the container "#nowhere"')
    expect(document.body.children).toHaveLength(0)
  })

  it("carry out a launcher's commands and options given before its chunk arrived, variables merged", async () => {
    const handle = initBubble({ flow: 'f1', label: 'Sales', placement: 'left', prefilledVariables: { Plan: 'pro' } })
    handle.setPrefilledVariables({ Seat: 3 })
    handle.open()
    expect(handle.element.isOpen).toBe(false)
    await vi.waitFor(() => expect(handle.element.isOpen).toBe(true))
    expect([handle.element.label, handle.element.placement]).toEqual(['Sales', 'left'])
    expect(handle.element.chat?.prefilledVariables).toEqual({ Plan: 'pro', Seat: 3 })
    handle.toggle()
    expect(handle.element.isOpen).toBe(false)
  })
})

/** A classic script tag as the page wrote it, in the body. */
function scriptTag(data: Record<string, string>): HTMLScriptElement {
  const script = document.createElement('script')
  Object.assign(script.dataset, data)
  document.body.append(script)
  return script
}

describe('autoEmbed', () => {
  it('embeds nothing without data-flow', () => {
    expect(autoEmbed(scriptTag({ mode: 'bubble' }))).toBeUndefined()
  })

  it("embeds an inline chat right after its tag, with the tag's data attributes as options", async () => {
    const script = scriptTag({ flow: 'f1', label: 'Help', allowScriptNetwork: 'false' })
    const handle = await autoEmbed(script)!
    expect(script.nextElementSibling).toBe(handle.element)
    expect(handle.element.localName).toBe('flow-chat')
    expect([handle.element.getAttribute('label'), handle.element.hasAttribute('allow-script-network')]).toEqual(['Help', false])
  })

  it('embeds a bubble or popup from data-mode, and a warned inline chat for an unknown mode', async () => {
    const popup = await autoEmbed(scriptTag({ flow: 'f1', mode: ' Popup ', label: 'Survey', defaultOpen: 'false' }))!
    expect(popup.element.localName).toBe('flow-chat-popup')
    await vi.waitFor(() => expect(popup.element.getAttribute('label')).toBe('Survey'))
    expect(popup.element.hasAttribute('default-open')).toBe(false)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const inline = await autoEmbed(scriptTag({ flow: 'f1', mode: 'sidebar' }))!
    expect(inline.element.localName).toBe('flow-chat')
    expect(warn).toHaveBeenCalledWith('[flow-chat] unknown data-mode "sidebar": using "standard"')
  })
})
