import { act, cleanup, fireEvent, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { settle } from '../../chat/fake-client'
import { withInput } from './with-input'

afterEach(cleanup)

describe('DateInput', () => {
  it('sends an ISO date', async () => {
    const setup = await withInput({ id: 'd', type: 'date input' })
    const field = setup.view.container.querySelector('input[type="date"]') as HTMLInputElement
    await act(async () => void fireEvent.input(field, { target: { value: '2026-03-01' } }))
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }))
      await settle()
    })
    expect(setup.sent()).toEqual(['2026-03-01'])
  })

  it('sends a range as "from to to", with date and time when asked', async () => {
    const setup = await withInput({
      id: 'd',
      type: 'date input',
      options: { isRange: true, hasTime: true, labels: { from: 'Arrive', to: 'Leave' } },
    })
    const [from, to] = Array.from(setup.view.container.querySelectorAll<HTMLInputElement>('input[type="datetime-local"]'))
    await act(async () => {
      fireEvent.input(from!, { target: { value: '2026-03-01T10:00' } })
      fireEvent.input(to!, { target: { value: '2026-03-02T12:00' } })
    })
    expect(screen.getByText('Arrive')).toBeTruthy()
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }))
      await settle()
    })
    expect(setup.sent()).toEqual(['2026-03-01T10:00 to 2026-03-02T12:00'])
  })

  it('sends a date and time from one field, only once it is filled in', async () => {
    const setup = await withInput({ id: 'd', type: 'date input', options: { hasTime: true, labels: { button: 'Book' } } })
    const field = screen.getByLabelText('Date') as HTMLInputElement
    expect(field.getAttribute('type')).toBe('datetime-local')
    const book = screen.getByRole('button', { name: 'Book' }) as HTMLButtonElement
    expect(book.disabled).toBe(true)
    await act(async () => void fireEvent.input(field, { target: { value: '2026-03-01T09:30' } }))
    await act(async () => {
      fireEvent.submit(field.closest('form')!)
      await settle()
    })
    expect(setup.sent()).toEqual(['2026-03-01T09:30'])
  })

  it('does not send a range with only one end, and labels both ends', async () => {
    const setup = await withInput({ id: 'd', type: 'date input', options: { isRange: true } })
    const from = screen.getByLabelText('From') as HTMLInputElement
    expect(screen.getByLabelText('To').getAttribute('type')).toBe('date')
    await act(async () => void fireEvent.input(from, { target: { value: '2026-03-01' } }))
    await act(async () => {
      fireEvent.submit(from.closest('form')!)
      await settle()
    })
    expect(setup.calls.continue).toHaveLength(0)
  })
})
