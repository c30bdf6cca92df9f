import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { settle } from '../../chat/fake-client'
import { click, typeAndEnter, withInput } from './with-input'

// The chat's language changes what the visitor reads, never what the service gets.

afterEach(() => {
  cleanup()
  document.documentElement.removeAttribute('lang')
})

/** A rich input in a chat on a page in `lang`, once its French words are there. */
async function inLanguage(lang: string, input: Parameters<typeof withInput>[0], send: string) {
  document.documentElement.lang = lang
  const setup = await withInput(input)
  await waitFor(() => expect(screen.getByRole('button', { name: send })).toBeTruthy())
  return setup
}

describe('answers in French', () => {
  it('a date: sent in ISO form, shown the French way', async () => {
    const setup = await inLanguage('fr', { id: 'd', type: 'date input' }, 'Envoyer')
    const field = screen.getByLabelText('Date') as HTMLInputElement
    await act(async () => void fireEvent.input(field, { target: { value: '2026-03-01' } }))
    await click(screen.getByRole('button', { name: 'Envoyer' }))
    expect(setup.sent()).toEqual(['2026-03-01'])
    expect(setup.guestBubbles()).toEqual(['1 mars 2026'])
  })

  it('a range of dates: sent as the service expects, shown as a French range', async () => {
    const setup = await inLanguage('fr', { id: 'd', type: 'date input', options: { isRange: true } }, 'Envoyer')
    expect([screen.getByText('Du'), screen.getByText('Au')]).toHaveLength(2)
    const [from, to] = Array.from(setup.view.container.querySelectorAll<HTMLInputElement>('input[type="date"]'))
    await act(async () => {
      fireEvent.input(from!, { target: { value: '2026-03-01' } })
      fireEvent.input(to!, { target: { value: '2026-03-05' } })
    })
    await click(screen.getByRole('button', { name: 'Envoyer' }))
    expect(setup.sent()).toEqual(['2026-03-01 to 2026-03-05'])
    expect(setup.guestBubbles()[0]).toMatch(/^1.*5 mars 2026$/)
  })

  it('a number: sent with a `.` decimal, shown with a comma', async () => {
    const setup = await inLanguage('fr', { id: 'n', type: 'number input' }, 'Envoyer')
    await typeAndEnter(screen.getByRole('spinbutton', { name: 'Saisissez un nombre…' }), '3.5')
    expect(setup.sent()).toEqual(['3.5'])
    expect(setup.guestBubbles()).toEqual(['3,5'])
  })

  it('a rating: sent as digits, its stars named in French', async () => {
    const setup = await inLanguage(
      'fr',
      { id: 'r', type: 'rating input', options: { buttonType: 'Icons', startsAt: 1, length: 5 } },
      'Envoyer',
    )
    await click(screen.getByRole('button', { name: '4 sur 5' }))
    await click(screen.getByRole('button', { name: 'Envoyer' }))
    expect(setup.sent()).toEqual(['4'])
    expect(setup.guestBubbles()).toEqual(['4/5'])
  })

  it('several choices: the count of those picked said with the French plural', async () => {
    const items = ['Rouge', 'Vert', 'Bleu'].map((content, i) => ({ id: `i${i}`, content }))
    const setup = await inLanguage('fr', { id: 'c', type: 'choice input', items, options: { isMultipleChoice: true } }, 'Envoyer')
    await click(screen.getByRole('button', { name: 'Rouge' }))
    expect(screen.getByRole('status').textContent).toBe('1 choix sélectionné')
    await click(screen.getByRole('button', { name: 'Bleu' }))
    expect(screen.getByRole('status').textContent).toBe('2 choix sélectionnés')
    await click(screen.getByRole('button', { name: 'Envoyer' }))
    expect(setup.sent()).toEqual(['Rouge, Bleu'])
  })
})

describe('answers in Arabic', () => {
  it('a number: sent as the contract writes it, shown as Arabic writes it', async () => {
    const setup = await inLanguage('ar', { id: 'n', type: 'number input' }, 'إرسال')
    await typeAndEnter(screen.getByRole('spinbutton'), '1234.5')
    expect(setup.sent()).toEqual(['1234.5'])
    expect(setup.guestBubbles()).toEqual([new Intl.NumberFormat('ar', { maximumFractionDigits: 20 }).format(1234.5)])
    await act(async () => void (await settle()))
  })
})
