import { act, cleanup, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { publishedFlow, settle, startResponse, text, textInput } from '../chat/fake-client'
import { renderApp } from './render-app'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const ELEVEN = Array.from({ length: 11 }, (_, i) => text(`m${i + 1}`, `Message ${i + 1}`))

/** What a screen reader hears from the polite region: every node added, in order. */
function listen(container: Element) {
  const heard: string[] = []
  const observer = new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) heard.push(node.textContent ?? '')
  })
  observer.observe(container.querySelector('[part~="live-region"]')!, { childList: true })
  return { heard, stop: () => observer.disconnect() }
}

describe('the live region', () => {
  it('announces each of eleven host messages that arrive at once, once and in order', async () => {
    const setup = renderApp({ start: startResponse({ messages: ELEVEN, input: textInput() }) })
    const region = listen(setup.view.container)
    await act(async () => {
      setup.conversation.start()
      await settle()
    })
    // What the region says is a chunk requested as the chat mounts: it may come after the messages.
    await waitFor(() => expect(region.heard).toEqual(ELEVEN.map((_, i) => `Message ${i + 1}`)))
    region.stop()
  })

  it('announces each message once, in order, when typing emulation plays them one by one', async () => {
    vi.useFakeTimers()
    const setup = renderApp({
      published: publishedFlow({
        settings: { typingEmulation: { enabled: true, speed: 600, maxDelay: 1, isDisabledOnFirstMessage: false } },
      }),
      start: startResponse({ messages: ELEVEN, input: textInput() }),
    })
    const region = listen(setup.view.container)
    await act(async () => {
      setup.conversation.start()
      await vi.advanceTimersByTimeAsync(0)
    })
    for (let i = 0; i < 40; i++) await act(async () => void (await vi.advanceTimersByTimeAsync(250)))
    await act(async () => void (await Promise.resolve()))
    expect(region.heard).toEqual(ELEVEN.map((_, i) => `Message ${i + 1}`))
    region.stop()
  })

  it('announces an html-only message as its text once the html chunk reads it, before the messages after it', async () => {
    const messages = [{ id: 'h1', type: 'text', content: { html: '<p>Fish &amp; <b>chips</b></p>' } }, text('m2', 'Anything else?')]
    const setup = renderApp({ start: startResponse({ messages, input: textInput() }) })
    const region = listen(setup.view.container)
    await act(async () => {
      setup.conversation.start()
      await settle()
    })
    await waitFor(() => expect(region.heard).toEqual(['Fish & chips', 'Anything else?']))
    region.stop()
  })
})
