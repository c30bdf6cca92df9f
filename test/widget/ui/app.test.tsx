import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TransportError } from '../../../src/widget/transport/index'
import { publishedFlow, settle, startResponse, text, textInput } from '../chat/fake-client'
import { renderApp } from './render-app'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

/** Queries inside the transcript only (the live region repeats host messages). */
const chat = () => within(screen.getByRole('region', { name: 'Chat' }))

const started = async (setup: ReturnType<typeof renderApp>) => {
  await act(async () => {
    setup.conversation.start()
    await settle()
  })
  return setup
}

describe('App', () => {
  it('shows a loading state instead of a blank box until the first step arrives', () => {
    const setup = renderApp({ published: new Promise(() => {}) as never })
    act(() => setup.conversation.start())
    expect(screen.getByRole('status').textContent).toMatch(/Loading the chat/)
  })

  it('renders host bubbles, the input, and the answer as a guest bubble', async () => {
    await started(
      renderApp({ replies: [{ lastMessageNewFormat: 'Ada!', messages: [text('m2', 'Nice to meet you')], input: textInput('in2') }] }),
    )
    expect(chat().getByText('Hello')).toBeTruthy()
    const field = screen.getByRole('textbox', { name: 'Type your answer…' })
    fireEvent.input(field, { target: { value: 'ada' } })
    await act(async () => {
      fireEvent.keyDown(field, { key: 'Enter' })
      await settle()
    })
    expect(screen.getByText('Ada!').getAttribute('data-status')).toBe('sent')
    expect(chat().getByText('Nice to meet you')).toBeTruthy()
  })

  it('announces each new host message in a polite live region', async () => {
    const { view } = await started(
      renderApp({
        start: startResponse({
          messages: [text('m1', 'Hi there'), { id: 'i', type: 'image', content: { url: 'https://x.example/a.png' } }],
          input: textInput(),
        }),
      }),
    )
    const region = view.container.querySelector('[aria-live="polite"]')
    expect(region?.getAttribute('aria-live')).toBe('polite')
    const announced = () => [...(region?.querySelectorAll('p') ?? [])].map((p) => p.textContent)
    // An image is announced once its picture can be seen (what the region says, and the picture, are chunks).
    await waitFor(() => expect(announced()).toEqual(['Hi there']))
    await waitFor(() => expect(view.container.querySelector('img[src="https://x.example/a.png"]')).not.toBeNull())
    expect(announced()).toEqual(['Hi there'])
    act(() => void fireEvent.load(view.container.querySelector('img[src="https://x.example/a.png"]')!))
    expect(announced()).toEqual(['Hi there', 'Image'])
  })

  it('shows the typing indicator for the emulated typing time before a bubble', async () => {
    vi.useFakeTimers()
    const setup = renderApp({
      published: publishedFlow({
        settings: { typingEmulation: { enabled: true, speed: 60, maxDelay: 10, isDisabledOnFirstMessage: false } },
      }),
      start: startResponse({ messages: [text('m1', 'two words')], input: textInput() }),
    })
    await act(async () => {
      setup.conversation.start()
      await vi.advanceTimersByTimeAsync(0)
    })
    const typing = () => setup.view.container.querySelector('.typing')
    expect(typing()).not.toBeNull()
    expect(chat().queryByText('two words')).toBeNull()
    await act(async () => void (await vi.advanceTimersByTimeAsync(1999)))
    expect(chat().queryByText('two words')).toBeNull()
    await act(async () => void (await vi.advanceTimersByTimeAsync(1)))
    expect(chat().getByText('two words')).toBeTruthy()
    expect(typing()).toBeNull()
  })

  it('marks an answer that could not be sent and retries it from its Retry button', async () => {
    const setup = await started(renderApp({ replies: [new TransportError('network', 'offline'), { input: textInput('in2') }] }))
    fireEvent.input(screen.getByRole('textbox'), { target: { value: 'hello' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }))
      await settle()
    })
    expect(screen.getByRole('alert').textContent).toMatch(/Not sent.*reach the chat service/)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
      await settle()
    })
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByText('hello').getAttribute('data-status')).toBe('sent')
    expect(setup.calls.continue.map((call) => call.key)).toEqual(['key-1', 'key-1'])
  })

  it('offers a new conversation when the session has expired', async () => {
    const setup = await started(renderApp({ replies: [new TransportError('http', 'gone', { status: 404, code: 'session_not_found' })] }))
    fireEvent.input(screen.getByRole('textbox'), { target: { value: 'hi' } })
    await act(async () => {
      fireEvent.submit(screen.getByRole('textbox').closest('form')!)
      await settle()
    })
    const notice = screen.getAllByRole('alert').find((node) => node.classList.contains('notice'))
    expect(notice?.textContent).toMatch(/expired/)
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull()
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Start a new conversation' }))
      await settle()
    })
    expect(setup.calls.start).toHaveLength(2)
    expect(screen.queryByText('hi')).toBeNull()
  })

  it('shows a failed start in plain words with a Try again control', async () => {
    const setup = await started(
      renderApp({ start: new TransportError('http', 'This flow is closed', { status: 410, code: 'flow_closed' }) }),
    )
    expect(screen.getByRole('alert').textContent).toMatch('This flow is closed')
    expect(setup.events.of('flowchat:error')[0]).toMatchObject({ code: 'service-error', status: 410, serviceCode: 'flow_closed' })
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy()
  })

  it('shows no avatars and no progress bar unless the theme enables them', async () => {
    const { view } = await started(
      renderApp({
        published: publishedFlow({
          theme: {
            general: { progressBar: { isEnabled: false } },
            chat: { hostAvatar: { isEnabled: false, url: 'https://cdn.example/bot.png' } },
          },
        }),
        start: startResponse({ progress: 35, messages: [text('m1', 'Hello')], input: textInput() }),
      }),
    )
    expect(chat().getByText('Hello')).toBeTruthy()
    expect(view.container.querySelector('[part~="avatar"]')).toBeNull()
    expect(screen.queryByRole('progressbar')).toBeNull()
  })

  it('draws the progress bar from progress when the theme enables it', async () => {
    const { view } = await started(
      renderApp({
        published: publishedFlow({ theme: { general: { progressBar: { isEnabled: true, placement: 'Bottom', position: 'fixed' } } } }),
        start: startResponse({ progress: 35, input: textInput() }),
      }),
    )
    // A chunk of its own, requested as the theme arrives.
    const bar = await screen.findByRole('progressbar', { name: 'Progress' })
    expect(bar.getAttribute('aria-valuenow')).toBe('35')
    expect(bar.dataset.placement).toBe('bottom')
    expect(bar.dataset.position).toBe('fixed')
    expect((view.container.querySelector('.progress-fill') as HTMLElement).style.getPropertyValue('--fct-progress-value')).toBe('35%')
  })

  it('applies the theme as custom properties on its root and shows themed avatars', async () => {
    const { view } = await started(
      renderApp({
        published: publishedFlow({
          theme: {
            chat: {
              hostBubbles: { backgroundColor: '#112233', color: '#ffffff' },
              roundness: 'large',
              hostAvatar: { isEnabled: true, url: 'https://cdn.example/bot.png' },
            },
          },
        }),
      }),
    )
    const frame = view.container.querySelector('[part="frame"]') as HTMLElement
    expect(frame.style.getPropertyValue('--fct-host-bubble-bg')).toBe('#112233')
    expect(frame.style.getPropertyValue('--fct-radius')).toBe('20px')
    const avatar = view.container.querySelector('img[part~="host-avatar"]')!
    expect(avatar.getAttribute('src')).toBe('https://cdn.example/bot.png')
    // A picture that fails to load becomes a neutral placeholder, not a broken image.
    await act(async () => void fireEvent.error(avatar))
    expect(view.container.querySelector('img[part~="host-avatar"]')).toBeNull()
    expect(view.container.querySelector('span[part~="host-avatar"]')).not.toBeNull()
  })

  it("takes avatars from the step's dynamicTheme, shows an emoji as text, and never fetches a {{Variable}} address", async () => {
    const { view } = await started(
      renderApp({
        published: publishedFlow({ theme: { chat: { hostAvatar: { isEnabled: true, url: '{{Bot}}' } } } }),
        start: startResponse({ messages: [text('m1', 'Hello')], input: textInput() }),
        replies: [{ dynamicTheme: { hostAvatarUrl: '🤖' }, messages: [text('m2', 'Beep')], input: textInput('in2') }],
      }),
    )
    // Before the variable has a value: the neutral circle, no request for "{{Bot}}".
    expect(view.container.querySelector('img[part~="host-avatar"]')).toBeNull()
    expect(view.container.querySelector('span[part~="host-avatar"]')?.textContent).toBe('')
    const field = screen.getByRole('textbox')
    fireEvent.input(field, { target: { value: 'hi' } })
    await act(async () => {
      fireEvent.keyDown(field, { key: 'Enter' })
      await settle()
    })
    const avatars = [...view.container.querySelectorAll('[part~="host-avatar"]')]
    expect(avatars.at(-1)?.textContent).toBe('🤖')
    expect(avatars.at(-1)?.getAttribute('aria-hidden')).toBe('true')
  })

  it('validates the look of a theme where it is read: a look it cannot read leaves the default one, and the chat goes on', async () => {
    const setup = await started(
      renderApp({
        published: publishedFlow({ theme: { chat: { hostBubbles: { backgroundColor: 12 }, roundness: 'large' } } as never }),
        start: startResponse({ messages: [text('m1', 'Hello')], input: textInput() }),
      }),
    )
    expect(chat().getByText('Hello')).toBeTruthy()
    const frame = setup.view.container.querySelector('[part="frame"]') as HTMLElement
    expect(frame.style.getPropertyValue('--fct-host-bubble-bg')).toBe('')
    expect(frame.style.getPropertyValue('--fct-radius')).toBe('')
    expect(setup.events.of('flowchat:log')).toContainEqual(
      expect.objectContaining({ code: 'invalid-theme-value', details: { paths: ['chat.hostBubbles.backgroundColor'] } }),
    )
  })
})
