import { act, cleanup, fireEvent, screen, within } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatInput } from '../../../../src/protocol/index'
import { settle, startResponse, text, textInput } from '../../chat/fake-client'
import { renderApp } from '../render-app'

afterEach(cleanup)

const phone: ChatInput = { id: 'phone', type: 'phone number input', options: { retryMessageContent: 'Not a phone number' } as never }

async function answer(field: HTMLElement, value: string) {
  await act(async () => {
    fireEvent.input(field, { target: { value } })
  })
  await act(async () => {
    fireEvent.keyDown(field, { key: 'Enter' })
    await settle()
  })
}

describe('the retry flow', () => {
  it('shows the retry message and keeps the same input with the rejected answer to correct', async () => {
    const setup = renderApp({
      start: startResponse({ input: phone }),
      replies: [
        { messages: [text('retry', 'This phone number does not look right. Can you type it again?')], input: phone },
        { messages: [text('ok', 'Thanks!')], input: textInput('next') },
      ],
    })
    await act(async () => {
      setup.conversation.start()
      await settle()
    })
    // The phone field is in the rich inputs chunk.
    await answer(await screen.findByRole('textbox'), '12ab')
    expect(
      within(screen.getByRole('region', { name: 'Chat' })).getByText('This phone number does not look right. Can you type it again?'),
    ).toBeTruthy()
    const again = screen.getByRole('textbox') as HTMLInputElement
    expect(again.getAttribute('type')).toBe('tel')
    expect(again.value).toBe('12ab')
    // The visitor edits the rejected answer rather than retyping it.
    await answer(again, '+15550100')
    expect(setup.calls.continue.map((call) => call.message)).toEqual(['12ab', '+15550100'])
    expect(within(screen.getByRole('region', { name: 'Chat' })).getByText('Thanks!')).toBeTruthy()
  })

  it('starts a different input empty, even right after an answer', async () => {
    const setup = renderApp({
      start: startResponse({ input: phone }),
      replies: [{ messages: [text('q', 'And your e-mail?')], input: { id: 'email', type: 'email input' } }],
    })
    await act(async () => {
      setup.conversation.start()
      await settle()
    })
    await answer(await screen.findByRole('textbox'), '+15550100')
    const next = screen.getByRole('textbox') as HTMLInputElement
    expect(next.getAttribute('type')).toBe('email')
    expect(next.value).toBe('')
  })
})
