import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineFlowChatLaunchers, type FlowChatBubbleElement, type FlowChatPopupElement, initBubble } from '../../../../src/widget/index'
import { fetch, requests } from './fake-service'

afterEach(() => {
  document.body.replaceChildren()
  requests.length = 0
  localStorage.clear()
})

const launcherButton = (bubble: HTMLElement) => bubble.shadowRoot?.querySelector<HTMLButtonElement>('[part="button"]') ?? null

describe('a launcher', () => {
  it('upgrades, wears the flow theme read through the configured fetch, and hands the chat its attributes and variables', async () => {
    const bubble = document.createElement('flow-chat-bubble') as FlowChatBubbleElement
    Object.assign(bubble, { prefilledVariables: { Plan: 'pro' } }) // set before the element is defined
    for (const [name, value] of [
      ['flow', 'f1'],
      ['api-host', 'https://api.example'],
      ['token', 'pk_1'],
      ['label', 'Sales'],
      ['id', 'help'],
      ['button-size', '56'],
      ['z-index', 'top'],
    ] as const) {
      bubble.setAttribute(name, value)
    }
    document.body.append(bubble)
    defineFlowChatLaunchers({ fetch })
    await vi.waitFor(() => expect(launcherButton(bubble)?.getAttribute('aria-label')).toBe('Open chat: Sales'))
    expect(requests.map((request) => [request.url, request.authorization])).toEqual([
      ['https://api.example/v1/flows/f1/publishedFlow?migrateToLatestVersion=true', 'Bearer pk_1'],
    ])
    await vi.waitFor(() => expect(bubble.style.getPropertyValue('--fc-theme-bg')).toBe('rgb(0, 51, 102)'))
    expect(bubble.style.getPropertyValue('--fc-bubble-size')).toBe('56px')
    expect(bubble.style.getPropertyValue('--fc-bubble-z-index')).toBe('')
    expect(bubble.chat).toBeNull()

    bubble.open()
    const chat = bubble.chat!
    expect(['flow', 'api-host', 'token', 'label', 'storage-key'].map((name) => chat.getAttribute(name))).toEqual([
      'f1',
      'https://api.example',
      'pk_1',
      'Sales',
      'help',
    ])
    expect(chat.prefilledVariables).toEqual({ Plan: 'pro' })
    await vi.waitFor(() => expect(chat.shadowRoot?.textContent).toContain('Hello'))
    // The chat reuses the launcher's read of the published flow: one read, then the session.
    expect(requests.map((request) => request.url.split('/').at(-1))).toEqual(['publishedFlow?migrateToLatestVersion=true', 'startChat'])
    expect(requests[1]?.body).toEqual({ isStreamEnabled: true, prefilledVariables: { Plan: 'pro' } })
    bubble.label = 'Help'
    await vi.waitFor(() => expect(chat.label).toBe('Help'))
  })

  it('carries out commands given before its code arrived, and takes the title from the flow without a label', async () => {
    defineFlowChatLaunchers({ fetch })
    const popup = document.createElement('flow-chat-popup') as FlowChatPopupElement
    popup.flow = 'f1'
    document.body.append(popup)
    popup.open()
    expect(popup.isOpen).toBe(false)
    await vi.waitFor(() => expect(popup.isOpen).toBe(true))
    await vi.waitFor(() => expect(popup.shadowRoot?.querySelector('[part="title"]')?.textContent).toBe('Support desk'))
    expect(popup.chat?.getAttribute('storage-key')).toBe('flow-chat-popup')
  })

  it("takes the flow's name for its title when the flow has no share title (the launcher's name follows)", async () => {
    defineFlowChatLaunchers({ fetch })
    const bubble = document.createElement('flow-chat-bubble') as FlowChatBubbleElement
    bubble.flow = 'named'
    document.body.append(bubble)
    await vi.waitFor(() => expect(launcherButton(bubble)?.getAttribute('aria-label')).toBe('Open chat: Sales desk'))
    bubble.open()
    await vi.waitFor(() => expect(bubble.shadowRoot?.querySelector('[part="title"]')?.textContent).toBe('Sales desk'))
  })

  it("sends a handle's commands through its chat, and refuses them (with an error event) before the chat exists", async () => {
    defineFlowChatLaunchers({ fetch })
    const handle = initBubble({ flow: 'f1' })
    const errors: unknown[] = []
    handle.element.addEventListener('flowchat:error', (event) => errors.push(event.detail))
    await expect(handle.sendCommand('wizz')).rejects.toMatchObject({
      code: 'command-rejected',
      message: 'The command "wizz" was not sent: the chat has not been opened yet.',
    })
    expect(errors).toEqual([expect.objectContaining({ code: 'command-rejected' })])
    handle.open()
    await vi.waitFor(() => expect(handle.element.chat?.shadowRoot?.textContent).toContain('Hello'))
    await handle.sendCommand('wizz')
    await vi.waitFor(() => expect(handle.element.chat?.shadowRoot?.textContent).toContain('Wizzzzz'))
    expect(requests.at(-1)?.body).toEqual({ message: { type: 'command', command: 'wizz' } })
  })

  it('forgets the remembered conversation on reset(), even before the chat exists', async () => {
    defineFlowChatLaunchers({ fetch })
    localStorage.setItem('flowchat:chat:f1:flow-chat-bubble', '{"saved":true}')
    const bubble = document.createElement('flow-chat-bubble') as FlowChatBubbleElement
    bubble.flow = 'f1'
    document.body.append(bubble)
    bubble.reset()
    await vi.waitFor(() => expect(localStorage.getItem('flowchat:chat:f1:flow-chat-bubble')).toBeNull())
  })

  it('speaks its language, shows a close icon while open, and hands its chat the language and the page’s words', async () => {
    sessionStorage.clear() // where an earlier test's bubble was left open
    defineFlowChatLaunchers({ fetch })
    const bubble = document.createElement('flow-chat-bubble') as FlowChatBubbleElement
    Object.assign(bubble, { flow: 'f1', lang: 'fr', colorScheme: 'dark', strings: { closeChat: 'Fermer' } })
    document.body.append(bubble)
    await vi.waitFor(() => expect(launcherButton(bubble)?.getAttribute('aria-label')).toBe('Ouvrir la discussion : Support desk'))
    expect(launcherButton(bubble)?.dataset.icon).toBe('chat')
    bubble.open()
    expect(launcherButton(bubble)?.getAttribute('aria-label')).toBe('Fermer la discussion : Support desk')
    expect(launcherButton(bubble)?.dataset.icon).toBe('close')
    expect(bubble.shadowRoot?.querySelector('[part="close-button"]')?.getAttribute('aria-label')).toBe('Fermer')
    const window = bubble.shadowRoot!.querySelector<HTMLElement>('[part="window"]')!
    expect([window.lang, window.dir]).toEqual(['fr', 'ltr'])
    const chat = bubble.chat!
    expect([chat.getAttribute('lang'), chat.getAttribute('color-scheme'), chat.strings]).toEqual(['fr', 'dark', { closeChat: 'Fermer' }])
    bubble.lang = 'he'
    await vi.waitFor(() => expect(window.dir).toBe('rtl'))
    await vi.waitFor(() => expect(chat.getAttribute('lang')).toBe('he'))
  })
})
