import { act, cleanup, fireEvent, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatInput } from '../../../src/protocol/index'
import { settle, startResponse, textInput } from '../../chat/fake-client'
import { renderApp } from '../render-app'

afterEach(cleanup)

async function withInput(input: ChatInput) {
  const setup = renderApp({ start: startResponse({ input }), replies: [{ input: textInput('next') }] })
  await act(async () => {
    setup.conversation.start()
    await settle()
  })
  return setup
}

const click = async (element: HTMLElement) =>
  act(async () => {
    fireEvent.click(element)
    await settle()
  })

describe('RatingInput', () => {
  it('offers 0 to 10 by default with its labels and answers in one click when enabled', async () => {
    const setup = await withInput({ id: 'r', type: 'rating input', options: { labels: { left: 'Unlikely', right: 'Likely' }, isOneClickSubmitEnabled: true } })
    const group = screen.getByRole('group', { name: 'Rating' })
    expect(Array.from(group.querySelectorAll('button'), (button) => button.textContent)).toEqual(
      ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10'],
    )
    expect(screen.getByText('Unlikely')).toBeTruthy()
    await click(screen.getByRole('button', { name: '9' }))
    expect(setup.calls.continue.map((call) => call.message)).toEqual(['9'])
  })

  it('lets the visitor pick then send when one-click submit is off', async () => {
    const setup = await withInput({ id: 'r', type: 'rating input', options: { startsAt: 1, length: 5, buttonType: 'Icons', labels: { button: 'Rate' } } })
    await click(screen.getByRole('button', { name: '4 of 5' }))
    expect(setup.calls.continue).toHaveLength(0)
    expect(screen.getByRole('button', { name: '4 of 5' }).getAttribute('aria-pressed')).toBe('true')
    await click(screen.getByRole('button', { name: 'Rate' }))
    expect(setup.calls.continue.map((call) => call.message)).toEqual(['4'])
  })
})
