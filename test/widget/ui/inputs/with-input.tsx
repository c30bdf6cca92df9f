import { act, fireEvent, waitFor } from '@testing-library/preact'
import type { ChatInput, ChatStepResult, PublishedFlow } from '../../../../src/protocol/index'
import { publishedFlow, settle, startResponse, textInput } from '../../chat/fake-client'
import { renderApp } from '../render-app'

/**
 * The real conversation and UI with `input` waiting for an answer (its lazily loaded view on
 * screen). The service answers the first answer with `reply` (by default a text input).
 */
export async function withInput(input: ChatInput, options: { published?: PublishedFlow; reply?: ChatStepResult } = {}) {
  const setup = renderApp({
    published: options.published ?? publishedFlow(),
    start: startResponse({ input }),
    replies: [options.reply ?? { input: textInput('next') }],
  })
  await act(async () => {
    setup.conversation.start()
    await settle()
  })
  const { container } = setup.view
  await waitFor(() => {
    if (!container.querySelector('[part~="input-row"]')) throw new Error(`the ${input.type} did not show`)
  })
  return {
    ...setup,
    /** The messages sent to the service, in order. */
    sent: () => setup.calls.continue.map((call) => call.message),
    /** What the visitor sees as their own answers, oldest first. */
    guestBubbles: () => Array.from(container.querySelectorAll('[part~="guest-bubble"]'), (bubble) => bubble.textContent),
  }
}

export async function click(element: HTMLElement): Promise<void> {
  await act(async () => {
    fireEvent.click(element)
    await settle()
  })
}

export async function type(field: HTMLElement, value: string): Promise<void> {
  await act(async () => {
    fireEvent.input(field, { target: { value } })
  })
}

export async function press(field: HTMLElement, init: KeyboardEventInit & { keyCode?: number } = {}): Promise<void> {
  await act(async () => {
    fireEvent.keyDown(field, { key: 'Enter', ...init })
    await settle()
  })
}

export async function typeAndEnter(field: HTMLElement, value: string): Promise<void> {
  await type(field, value)
  await press(field)
}
