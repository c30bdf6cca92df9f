import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ChatMessage } from '../../../src/protocol/index'
import { IMAGE_WAIT_MS } from '../../../src/protocol/time-limits'
import { publishedFlow, settle, startResponse, text, textInput } from '../chat/fake-client'
import { renderApp } from './render-app'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const picture = (url: string, alt?: string): ChatMessage => ({
  id: 'img',
  type: 'image',
  content: { url, ...(alt ? { clickLink: { alt } } : {}) },
})

async function show(messages: ChatMessage[]) {
  const setup = renderApp({ start: startResponse({ messages, input: textInput() }) })
  await act(async () => {
    setup.conversation.start()
    await settle()
  })
  const { container } = setup.view
  const image = () => container.querySelector<HTMLImageElement>('img[part~="image"]')
  /** The image bubble's row, whether or not it is showing. */
  const imageRow = () => container.querySelector<HTMLElement>('[part~="host-row"]:has(.media)')
  const dots = () => container.querySelectorAll('[part~="typing-row"]')
  const announced = () => Array.from(container.querySelectorAll('[part~="live-region"] p'), (p) => p.textContent)
  // Pictures are drawn by the media chunk: here once it is (a picture, or what stands in for one).
  if (messages.some((message) => message.type === 'image'))
    await waitFor(() => expect(container.querySelector('[part~="image"], [part~="image-missing"]')).not.toBeNull())
  return { ...setup, image, imageRow, dots, announced }
}

/** Queries inside the transcript only, as assistive technology sees it (hidden rows excluded). */
const chat = () => within(screen.getByRole('region', { name: 'Chat' }))

describe('an image bubble', () => {
  it('stays hidden, with typing dots in its place, until its picture has loaded, then shows it', async () => {
    const view = await show([text('t', 'Look:'), picture('https://cdn.example/view.png', 'Mountains at dawn'), text('after', 'Lovely.')])
    // Fetched eagerly: a lazy image inside a hidden row would never load.
    expect(view.image()?.getAttribute('loading')).toBeNull()
    expect(view.imageRow()?.hidden).toBe(true)
    expect(view.dots()).toHaveLength(1)
    expect(chat().queryByRole('img', { name: 'Mountains at dawn' })).toBeNull()

    act(() => void fireEvent.load(view.image()!))
    expect(view.imageRow()?.hidden).toBe(false)
    expect(view.dots()).toHaveLength(0)
    expect(chat().getByRole('img', { name: 'Mountains at dawn' })).toBeTruthy()
  })

  it('shows a picture that fails as unavailable, by its alt text, instead of a broken image', async () => {
    const view = await show([picture('https://cdn.example/gone.png', 'Mountains at dawn')])
    act(() => void fireEvent.error(view.image()!))
    const row = view.imageRow()!
    expect(row.hidden).toBe(false)
    expect(row.querySelector('img')).toBeNull()
    expect(row.querySelector('[part~="image-missing"]')?.textContent).toBe('Mountains at dawn')
    expect(within(row).getByRole('img', { name: 'Image unavailable: Mountains at dawn' })).toBeTruthy()
    expect(view.dots()).toHaveLength(0)
  })

  it('says "Image unavailable" for a failed picture without alt text', async () => {
    const view = await show([picture('https://cdn.example/gone.png')])
    act(() => void fireEvent.error(view.image()!))
    expect(view.imageRow()?.textContent).toBe('Image unavailable')
  })

  it('does not wait for a picture it will never load (an unsafe address)', async () => {
    const view = await show([picture('javascript:alert(1)', 'Trap')])
    expect(view.imageRow()?.hidden).toBe(false)
    expect(view.dots()).toHaveLength(0)
    expect(view.image()).toBeNull()
    await waitFor(() => expect(view.announced()).toEqual(['Image: Trap']))
  })

  it('shows the bubble anyway when the picture takes too long, so the visitor is never stuck', async () => {
    vi.useFakeTimers()
    const setup = renderApp({ start: startResponse({ messages: [picture('https://slow.example/a.png', 'Slow')], input: textInput() }) })
    await act(async () => {
      setup.conversation.start()
      await vi.advanceTimersByTimeAsync(0)
    })
    const row = () => setup.view.container.querySelector<HTMLElement>('[part~="host-row"]:has(.media)')!
    expect(row().hidden).toBe(true)
    await act(async () => void (await vi.advanceTimersByTimeAsync(IMAGE_WAIT_MS - 1)))
    expect(row().hidden).toBe(true)
    await act(async () => void (await vi.advanceTimersByTimeAsync(1)))
    expect(row().hidden).toBe(false)
    // Still the picture, which may yet arrive.
    expect(row().querySelector('img')?.getAttribute('src')).toBe('https://slow.example/a.png')
  })
})

describe('announcing an image bubble', () => {
  it('announces the image by its alt text once it shows, and what follows it only after it', async () => {
    const view = await show([text('t', 'Look:'), picture('https://cdn.example/view.png', 'Mountains at dawn'), text('after', 'Lovely.')])
    expect(view.announced()).toEqual(['Look:'])
    act(() => void fireEvent.load(view.image()!))
    expect(view.announced()).toEqual(['Look:', 'Image: Mountains at dawn', 'Lovely.'])
    // A later render (the picture's own re-render, here a second load) announces nothing twice.
    act(() => void fireEvent.load(view.image()!))
    expect(view.announced()).toEqual(['Look:', 'Image: Mountains at dawn', 'Lovely.'])
  })

  it('announces an image that held back several later bubbles together with them, in order', async () => {
    vi.useFakeTimers()
    const later = ['One.', 'Two.', 'Three.', 'Four.'].map((words, i) => text(`l${i}`, words))
    const setup = renderApp({
      // Typing emulation: each bubble arrives on its own, after the picture started loading.
      published: publishedFlow({
        settings: { typingEmulation: { enabled: true, maxDelay: 0.2, delayBetweenBubbles: 0, isDisabledOnFirstMessage: true } },
      }),
      start: startResponse({ messages: [picture('https://cdn.example/view.png', 'Mountains at dawn'), ...later], input: textInput() }),
    })
    act(() => setup.conversation.start())
    // Rendering step by step, as a browser would between bubbles (act renders when it ends).
    for (let ms = 0; ms < IMAGE_WAIT_MS / 2; ms += 100) await act(async () => void (await vi.advanceTimersByTimeAsync(100)))
    const { container } = setup.view
    const announced = () => Array.from(container.querySelectorAll('[part~="live-region"] p'), (p) => p.textContent)
    // All four have arrived (on screen they wait behind the picture, hidden by the stylesheet).
    expect(container.querySelector('[part~="transcript"]')?.textContent).toContain('Four.')
    expect(announced()).toEqual([])
    act(() => void fireEvent.load(container.querySelector('img[part~="image"]')!))
    expect(announced()).toEqual(['Image: Mountains at dawn', 'One.', 'Two.', 'Three.', 'Four.'])
  })
})
