import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatInput } from '../../../../src/protocol/index'
import { click, withInput } from './with-input'

afterEach(cleanup)

const cards = {
  id: 'cards',
  type: 'cards',
  items: [
    {
      id: 'paris',
      imageUrl: 'https://img.test/paris.png',
      title: 'Paris',
      description: 'A <b>city</b>',
      paths: [
        { id: 'p-go', text: 'Go' },
        { id: 'p-more', text: 'More info' },
      ],
    },
    { id: 'rome', title: 'Rome', paths: [{ id: 'r-go', text: 'Go' }] },
  ],
} as unknown as ChatInput

describe('CardsInput', () => {
  it("shows each card's picture, title, text and buttons, and a button answers with its path id and shows its text", async () => {
    const setup = await withInput(cards)
    const list = screen.getByRole('list', { name: 'Cards' })
    const [paris, rome] = within(list).getAllByRole('listitem')
    expect(paris!.getAttribute('aria-label')).toBe('Paris (1 of 2)')
    // Titles are headings, so a screen reader moves between cards by heading (level 2: see cards-input.tsx).
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual(['Paris', 'Rome'])
    expect(within(paris!).getByRole('heading', { name: 'Paris' })).toBeTruthy()
    expect(paris!.querySelector('img')?.getAttribute('src')).toBe('https://img.test/paris.png')
    // Text from the flow stays text.
    expect(within(paris!).getByText('A <b>city</b>')).toBeTruthy()
    expect(paris!.querySelector('b')).toBeNull()
    expect(
      within(rome!)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Go'])
    await click(within(paris!).getByRole('button', { name: 'More info' }))
    expect(setup.sent()).toEqual(['p-more'])
    expect(setup.guestBubbles()).toEqual(['More info'])
  })

  it('moves between cards with the arrow keys', async () => {
    await withInput(cards)
    const [paris, rome] = screen.getAllByRole('listitem')
    const go = within(paris!).getByRole('button', { name: 'Go' })
    go.focus()
    await act(async () => void fireEvent.keyDown(go, { key: 'ArrowRight' }))
    expect(document.activeElement).toBe(within(rome!).getByRole('button', { name: 'Go' }))
    await act(async () => void fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' }))
    expect(document.activeElement).toBe(go)
  })

  it('drops a picture whose address is not allowed', async () => {
    await withInput({
      ...cards,
      items: [{ id: 'x', title: 'X', imageUrl: 'javascript:alert(1)', paths: [{ id: 'x1', text: 'Pick' }] }],
    } as unknown as ChatInput)
    await waitFor(() => expect(screen.getByRole('listitem').querySelector('img')).toBeNull())
  })
})

describe('PaymentInput', () => {
  it('says payment is not available, as a status, and Continue goes on without a message', async () => {
    const setup = await withInput({ id: 'pay', type: 'payment input', options: {} })
    expect(screen.getByRole('status').textContent).toBe('Payment is not available in this chat.')
    await click(screen.getByRole('button', { name: 'Continue' }))
    expect(setup.sent()).toEqual([null])
    expect(setup.guestBubbles()).toEqual(['Continue'])
  })
})
