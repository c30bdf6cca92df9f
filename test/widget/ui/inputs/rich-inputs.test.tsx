import { act, cleanup, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatInput } from '../../../../src/protocol/index'
import { settle, startResponse } from '../../chat/fake-client'
import { renderApp } from '../render-app'
import { withInput } from './with-input'

afterEach(cleanup)

/** The core reads only the text field's options: the rich inputs chunk checks the rest itself. */
describe('the rich inputs chunk', () => {
  it('reads options exported as strings as the numbers they stand for', async () => {
    await withInput({ id: 'r', type: 'rating input', options: { startsAt: '1', length: '5' } as never })
    const group = screen.getByRole('group', { name: 'Rating' })
    expect(Array.from(group.querySelectorAll('button'), (button) => button.textContent)).toEqual(['1', '2', '3', '4', '5'])
  })

  it('fails the step as an unreadable response does when an input’s options cannot be read', async () => {
    const input: ChatInput = { id: 'r', type: 'rating input', options: { length: 'ten', isOneClickSubmitEnabled: 'yes' } as never }
    const setup = renderApp({ start: startResponse({ input }) })
    await act(async () => {
      setup.conversation.start()
      await settle()
    })
    await waitFor(() => expect(setup.conversation.failure.value).not.toBeNull())
    const [error] = setup.events.of('flowchat:error')
    expect(error).toMatchObject({ code: 'invalid-response', retryable: false })
    expect(error!.details).toEqual([
      expect.objectContaining({ path: 'length' }),
      expect.objectContaining({ path: 'isOneClickSubmitEnabled' }),
    ])
    expect(setup.conversation.failure.value?.recovery).toBe('restart')
    // The visitor sees why and how to go on, and no half-read input.
    expect(screen.getByRole('alert').textContent).toContain("The chat service sent a reply this chat can't read.")
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy()
    expect(setup.view.container.querySelector('[part~="input-row"]')).toBeNull()
  })
})
