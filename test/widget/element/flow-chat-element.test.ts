import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Settings, Theme } from '../../../src/protocol/index'
import { loadChatView } from '../../../src/widget/element/chat-view'
import { defineFlowChat, type FlowChatElement } from '../../../src/widget/index'
import type { FetchLike } from '../../../src/widget/transport/index'
import { publishedFlow, startResponse, text, textInput } from '../chat/fake-client'

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

interface Request {
  url: string
  method: string
  headers: Headers
  body: unknown
  signal: AbortSignal | null | undefined
}

/** A flow service in a function: answers by path, records every request. */
function service(options: { hang?: RegExp; theme?: Theme; settings?: Settings } = {}) {
  const requests: Request[] = []
  const fetch: FetchLike = async (url, init) => {
    const request: Request = {
      url,
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
      signal: init?.signal,
    }
    requests.push(request)
    if (options.hang?.test(url)) {
      return new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      )
    }
    if (url.includes('/publishedFlow')) {
      const overrides = { ...(options.theme ? { theme: options.theme } : {}), ...(options.settings ? { settings: options.settings } : {}) }
      return json({ publishedFlow: publishedFlow(overrides), version: '3' })
    }
    if (url.endsWith('/startChat'))
      return json(startResponse({ messages: [text('m1', `Welcome to ${url.split('/').at(-2)}`)], input: textInput() }))
    return json({ error: { code: 'not_found', message: 'Not found' } }, 404)
  }
  return { fetch, requests }
}

let tagCount = 0
function setup(service: { fetch: FetchLike }) {
  const tagName = `flow-chat-test-${++tagCount}`
  defineFlowChat({ tagName, fetch: service.fetch })
  return tagName
}

/** The chat's requests answered and its views (a chunk of their own, loaded as it starts) rendered. */
const flush = async () => {
  await loadChatView()
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0))
}

afterEach(() => {
  document.body.replaceChildren()
  localStorage.clear()
  sessionStorage.clear()
})

describe('<flow-chat>', () => {
  it('can be defined twice without error, keeping the first definition', () => {
    const first = defineFlowChat({ tagName: 'flow-chat-twice' })
    expect(() => defineFlowChat({ tagName: 'flow-chat-twice' })).not.toThrow()
    expect(defineFlowChat({ tagName: 'flow-chat-twice' })).toBe(first)
  })

  it('runs a conversation in its shadow root from its attributes, and reports composed events', async () => {
    const api = service()
    const tag = setup(api)
    const seen: string[] = []
    for (const type of ['flowchat:ready', 'flowchat:start']) document.addEventListener(type, (event) => seen.push(event.type))
    const element = document.createElement(tag) as FlowChatElement
    element.setAttribute('flow', 'lead-flow')
    element.setAttribute('api-host', 'https://api.example/')
    element.setAttribute('chat-api-host', 'https://chat.example')
    element.setAttribute('token', 'pk_test')
    document.body.append(element)
    await flush()
    // startChat leaves first: cross-origin, it waits for its preflight, a round trip more.
    expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST https://chat.example/v1/flows/lead-flow/startChat',
      'GET https://api.example/v1/flows/lead-flow/publishedFlow?migrateToLatestVersion=true',
    ])
    expect(api.requests.find((r) => r.method === 'GET')?.headers.get('Authorization')).toBe('Bearer pk_test')
    expect(element.shadowRoot?.textContent).toContain('Welcome to lead-flow')
    expect(element.shadowRoot?.querySelector('[part~="input"]')).not.toBeNull()
    expect(seen).toEqual(['flowchat:ready', 'flowchat:start'])
    // Nothing of the widget renders into the page itself.
    expect(element.childNodes).toHaveLength(0)
  })

  it('mirrors attributes as properties and defaults the chat host to the api host', async () => {
    const api = service()
    const element = document.createElement(setup(api)) as FlowChatElement
    element.flow = 'f1'
    element.apiHost = 'https://api.example'
    element.prefilledVariables = { Name: 'Ada' }
    expect(element.getAttribute('api-host')).toBe('https://api.example')
    document.body.append(element)
    await flush()
    const start = api.requests.find((r) => r.url.endsWith('/startChat'))
    expect(start?.url).toBe('https://api.example/v1/flows/f1/startChat')
    expect(start?.body).toEqual({ isStreamEnabled: true, prefilledVariables: { Name: 'Ada' } })
  })

  it('restarts cleanly when the flow changes, once for several changes at once', async () => {
    const api = service({ hang: /first\/startChat/ })
    const element = document.createElement(setup(api)) as FlowChatElement
    element.flow = 'first'
    document.body.append(element)
    await flush()
    const pending = api.requests.find((r) => r.url.endsWith('first/startChat'))
    element.flow = 'second'
    element.token = 'pk_2'
    await flush()
    expect(pending?.signal?.aborted).toBe(true)
    expect(api.requests.filter((r) => r.url.endsWith('second/startChat'))).toHaveLength(1)
    expect(element.shadowRoot?.textContent).toContain('Welcome to second')
    expect(element.shadowRoot?.textContent).not.toContain('first')
  })

  it('starts a new conversation on reset()', async () => {
    const api = service()
    const element = document.createElement(setup(api)) as FlowChatElement
    element.flow = 'f1'
    document.body.append(element)
    await flush()
    element.prefilledVariables = { Plan: 'team' }
    element.reset()
    await flush()
    const starts = api.requests.filter((r) => r.url.endsWith('/startChat'))
    expect(starts.map((r) => r.body)).toEqual([{ isStreamEnabled: true }, { isStreamEnabled: true, prefilledVariables: { Plan: 'team' } }])
    expect(element.shadowRoot?.querySelectorAll('[part~="host-bubble"]')).toHaveLength(1)
  })

  it('releases its requests, timers and DOM when removed', async () => {
    const api = service({ hang: /startChat/ })
    const element = document.createElement(setup(api)) as FlowChatElement
    element.flow = 'f1'
    document.body.append(element)
    await flush()
    const pending = api.requests.find((r) => r.url.endsWith('/startChat'))
    element.remove()
    await flush()
    expect(pending?.signal?.aborted).toBe(true)
    expect(element.shadowRoot?.querySelector('[part="frame"]')).toBeNull()
  })

  it('keeps its conversation when moved within the page', async () => {
    const api = service()
    const element = document.createElement(setup(api)) as FlowChatElement
    element.flow = 'f1'
    document.body.append(element)
    await flush()
    const other = document.createElement('section')
    document.body.append(other)
    other.append(element)
    await flush()
    expect(api.requests.filter((r) => r.url.endsWith('/startChat'))).toHaveLength(1)
    expect(element.shadowRoot?.textContent).toContain('Welcome to f1')
  })

  it('applies the theme customCss inside its shadow root only', async () => {
    const api = service({ theme: { customCss: '.bubble { letter-spacing: 3px }' } })
    const element = document.createElement(setup(api)) as FlowChatElement
    element.flow = 'f1'
    document.body.append(element)
    await flush()
    const root = element.shadowRoot!
    const adopted = (root.adoptedStyleSheets ?? []).flatMap((sheet) => Array.from(sheet.cssRules, (rule) => rule.cssText))
    const inline = Array.from(root.querySelectorAll('style'), (style) => style.textContent ?? '')
    expect([...adopted, ...inline].join('\n')).toContain('letter-spacing')
    expect(document.head.querySelector('style')).toBeNull()
  })

  it('shows and reports an error instead of a blank box when the flow attribute is missing', async () => {
    const api = service()
    const element = document.createElement(setup(api)) as FlowChatElement
    const errors: unknown[] = []
    element.addEventListener('flowchat:error', (event) => errors.push((event as CustomEvent).detail))
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    document.body.append(element)
    await flush()
    const printed = [...consoleError.mock.calls]
    consoleError.mockRestore()
    expect(errors).toMatchObject([{ code: 'missing-flow', message: expect.stringMatching(/names no flow/), retryable: false }])
    // Calmly, alone in the chat's box, with nothing to try again.
    const notice = element.shadowRoot?.querySelector('[part="notice"]')
    expect([notice?.getAttribute('role'), notice?.textContent]).toEqual(['status', 'This chat is not set up yet.'])
    expect(element.shadowRoot?.querySelectorAll('button, [part="transcript"]')).toHaveLength(0)
    // The owner reads what to fix in the console, in every build.
    expect(printed).toEqual([
      [expect.stringMatching(/^\[flow-chat\] This chat is not set up: it names no flow\..*\(missing-flow\)$/), errors[0]],
    ])
    expect(api.requests).toHaveLength(0)
  })

  it('starts no chat on a flow this page already read was not found, and says so without a way to try again', async () => {
    const api = service()
    const notFound: FetchLike = async (url, init) =>
      url.includes('/publishedFlow')
        ? json({ error: { code: 'flow_not_found', message: 'No flow with id nope.' } }, 404)
        : api.fetch(url, init)
    const tag = setup({ fetch: notFound })
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    const first = document.createElement(tag) as FlowChatElement
    first.flow = 'nope'
    document.body.append(first)
    await flush()
    const second = document.createElement(tag) as FlowChatElement
    const errors: unknown[] = []
    second.addEventListener('flowchat:error', (event) => errors.push((event as CustomEvent).detail))
    second.flow = 'nope'
    document.body.append(second)
    await flush()
    consoleError.mockRestore()
    // One read of the published flow for the page; one startChat, sent beside the first chat's read.
    expect(api.requests.filter((r) => r.url.endsWith('/startChat'))).toHaveLength(1)
    expect(errors).toEqual([
      {
        code: 'flow-not-found',
        message:
          "This chat is not set up: No flow with id nope. Check the chat's flow: the id or public id of a flow of the token's workspace.",
        status: 404,
        serviceCode: 'flow_not_found',
        retryable: false,
        details: 'No flow with id nope.',
      },
    ])
    for (const element of [first, second]) {
      expect(element.shadowRoot?.querySelector('[part="notice"]')?.textContent).toBe('This chat is not set up yet.')
      expect(element.shadowRoot?.querySelectorAll('button')).toHaveLength(0)
    }
  })

  it('shows the remembered conversation again on a later visit, without a second session', async () => {
    const api = service({ settings: { general: { rememberUser: { isEnabled: true, storage: 'local' } } } })
    const tag = setup(api)
    const first = document.createElement(tag) as FlowChatElement
    first.flow = 'f1'
    document.body.append(first)
    await vi.waitFor(() =>
      expect(JSON.parse(localStorage.getItem('flowchat:chat:f1:default') ?? 'null')).toMatchObject({ sessionId: 's1', resultId: 'r1' }),
    )
    first.remove()
    await flush()
    const second = document.createElement(tag) as FlowChatElement
    second.flow = 'f1'
    document.body.append(second)
    // Remembered conversations are read by a chunk of their own: it loads first.
    await vi.waitFor(() => expect(second.shadowRoot?.textContent).toContain('Welcome to f1'))
    expect(api.requests.filter((r) => r.url.endsWith('/startChat'))).toHaveLength(1)
    expect(second.shadowRoot?.querySelector('[part~="input"]')).not.toBeNull()
  })

  it('forgets a remembered conversation when the flow does not remember users', async () => {
    localStorage.setItem('flowchat:chat:f1:default', '{"old":true}')
    const api = service({ settings: { general: { rememberUser: { isEnabled: false } } } })
    const element = document.createElement(setup(api)) as FlowChatElement
    element.flow = 'f1'
    document.body.append(element)
    await vi.waitFor(() => expect(localStorage.getItem('flowchat:chat:f1:default')).toBeNull())
  })

  it('keeps two unnamed chats of one flow apart, and a named one under its own key', async () => {
    const api = service({ settings: { general: { rememberUser: { isEnabled: true, storage: 'session' } } } })
    const tag = setup(api)
    const chats = ['', '', 'support'].map((key) => {
      const element = document.createElement(tag) as FlowChatElement
      element.flow = 'f1'
      if (key) element.storageKey = key
      document.body.append(element)
      return element
    })
    await flush()
    expect(chats).toHaveLength(3)
    expect(Object.keys(sessionStorage).sort()).toEqual([
      'flowchat:chat:f1:default',
      'flowchat:chat:f1:default#2',
      'flowchat:chat:f1:support',
    ])
  })

  it('reset() forgets the remembered conversation; reload() resumes it', async () => {
    const api = service({ settings: { general: { rememberUser: { isEnabled: true, storage: 'session' } } } })
    const element = document.createElement(setup(api)) as FlowChatElement
    element.flow = 'f1'
    document.body.append(element)
    await flush()
    element.reload()
    await flush()
    expect(api.requests.filter((r) => r.url.endsWith('/startChat'))).toHaveLength(1)
    element.reset()
    await flush()
    expect(api.requests.filter((r) => r.url.endsWith('/startChat'))).toHaveLength(2)
  })

  it('remembers in page memory, with one log, when storage throws', async () => {
    const api = service({ settings: { general: { rememberUser: { isEnabled: true, storage: 'local' } } } })
    const blocked = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError')
    }
    const spies = [
      vi.spyOn(window, 'localStorage', 'get').mockImplementation(blocked),
      vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(blocked),
    ]
    try {
      const element = document.createElement(setup(api)) as FlowChatElement
      const logs: string[] = []
      element.addEventListener('flowchat:log', (event) => logs.push(event.detail.code))
      element.flow = 'f1'
      document.body.append(element)
      await flush()
      expect(element.shadowRoot?.textContent).toContain('Welcome to f1')
      element.reload()
      await flush()
      expect(api.requests.filter((r) => r.url.endsWith('/startChat'))).toHaveLength(1)
      expect(element.shadowRoot?.textContent).toContain('Welcome to f1')
      expect(logs.filter((code) => code === 'storage-unavailable')).toHaveLength(1)
    } finally {
      for (const spy of spies) spy.mockRestore()
    }
  })

  it('names its transcript with the label attribute, without restarting', async () => {
    const api = service()
    const element = document.createElement(setup(api)) as FlowChatElement
    element.flow = 'f1'
    document.body.append(element)
    await flush()
    expect(element.shadowRoot?.querySelector('[part="transcript"]')?.getAttribute('aria-label')).toBe('Chat')
    element.label = 'Sales assistant'
    await flush()
    expect(element.shadowRoot?.querySelector('[part="transcript"]')?.getAttribute('aria-label')).toBe('Sales assistant')
    expect(api.requests.filter((r) => r.url.endsWith('/startChat'))).toHaveLength(1)
  })

  it('keeps its language through a new label: the locale is made once per start, not again for each render', async () => {
    const api = service()
    const element = document.createElement(setup(api)) as FlowChatElement
    Object.assign(element, { flow: 'f1', lang: 'de' })
    document.body.append(element)
    const send = () => element.shadowRoot?.querySelector('[part~="send-button"]')?.textContent
    await vi.waitFor(() => expect(send()).toBe('Senden'))
    element.label = 'Verkauf'
    // Rendered again at once: a locale made anew would speak English until its translation came back.
    expect(element.shadowRoot?.querySelector('[part="transcript"]')?.getAttribute('aria-label')).toBe('Verkauf')
    expect(send()).toBe('Senden')
  })

  it('upgrades properties set before the element was defined', async () => {
    const api = service()
    const tagName = `flow-chat-late-${++tagCount}`
    const element = document.createElement(tagName) as FlowChatElement
    Object.assign(element, { flow: 'early', prefilledVariables: { Plan: 'pro' } })
    document.body.append(element)
    defineFlowChat({ tagName, fetch: api.fetch })
    await flush()
    expect(element.getAttribute('flow')).toBe('early')
    expect(api.requests.find((r) => r.url.endsWith('/startChat'))?.body).toEqual({
      isStreamEnabled: true,
      prefilledVariables: { Plan: 'pro' },
    })
  })
  it('has script settings as attributes and properties, with the sandbox next to the chat API by default', () => {
    const element = document.createElement(setup(service())) as FlowChatElement
    expect(element.sandboxUrl).toBe(`${location.origin}/sandbox/v1/sandbox.html`)
    element.apiHost = 'https://api.example/'
    expect(element.sandboxUrl).toBe('https://api.example/sandbox/v1/sandbox.html')
    element.chatApiHost = 'https://chat.example'
    expect(element.sandboxUrl).toBe('https://chat.example/sandbox/v1/sandbox.html')
    element.sandboxUrl = 'https://cdn.example/sandbox.html'
    expect(element.getAttribute('sandbox-url')).toBe('https://cdn.example/sandbox.html')

    expect(element.scriptTimeout).toBe(10_000)
    element.scriptTimeout = 2500
    expect(element.getAttribute('script-timeout')).toBe('2500')
    element.setAttribute('script-timeout', 'soon')
    expect(element.scriptTimeout).toBe(10_000)

    expect(element.allowScriptNetwork).toBe(false)
    element.allowScriptNetwork = true
    expect(element.hasAttribute('allow-script-network')).toBe(true)
    element.allowScriptNetwork = false
    expect(element.hasAttribute('allow-script-network')).toBe(false)
  })

  it('keeps the conversation when a script setting changes', async () => {
    const api = service()
    const element = document.createElement(setup(api)) as FlowChatElement
    element.flow = 'f1'
    document.body.append(element)
    await flush()
    element.scriptTimeout = 3000
    element.allowScriptNetwork = true
    element.sandboxUrl = 'https://cdn.example/sandbox.html'
    await flush()
    expect(api.requests.filter((r) => r.url.endsWith('/startChat'))).toHaveLength(1)
  })

  it('speaks its lang, switches language, direction and colour scheme without restarting, and warns of unknown strings', async () => {
    const api = service()
    const element = document.createElement(setup(api)) as FlowChatElement
    const logs: unknown[] = []
    element.addEventListener('flowchat:log', (event) => logs.push(event.detail))
    Object.assign(element, { flow: 'f1', lang: 'fr', strings: { tryAgain: 'Encore', sendd: 'Go' } })
    document.body.append(element)
    const frame = () => element.shadowRoot?.querySelector<HTMLElement>('[part="frame"]')
    const transcript = () => element.shadowRoot?.querySelector('[part="transcript"]')?.getAttribute('aria-label')
    await vi.waitFor(() => expect(transcript()).toBe('Discussion'))
    expect([frame()?.lang, frame()?.dir, frame()?.dataset.scheme]).toEqual(['fr', 'ltr', 'light'])
    await vi.waitFor(() =>
      expect(logs).toContainEqual(
        expect.objectContaining({ code: 'unknown-string', status: 'warning', details: { unknown: ['sendd'], invalid: [] } }),
      ),
    )

    element.lang = 'ar'
    element.colorScheme = 'dark'
    await vi.waitFor(() => expect(transcript()).toBe('الدردشة'))
    expect([frame()?.lang, frame()?.dir, frame()?.dataset.scheme]).toEqual(['ar', 'rtl', 'dark'])
    element.dir = 'ltr'
    await flush()
    expect(frame()?.dir).toBe('ltr')
    expect(api.requests.filter((r) => r.url.endsWith('/startChat'))).toHaveLength(1)
  })
})
