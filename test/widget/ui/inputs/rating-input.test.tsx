import { cleanup, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { click, withInput } from './with-input'

afterEach(cleanup)

describe('RatingInput', () => {
  it('offers 0 to 10 by default with its labels and answers in one click when enabled', async () => {
    const setup = await withInput({
      id: 'r',
      type: 'rating input',
      options: { labels: { left: 'Unlikely', right: 'Likely' }, isOneClickSubmitEnabled: true },
    })
    const group = screen.getByRole('group', { name: 'Rating' })
    expect(Array.from(group.querySelectorAll('button'), (button) => button.textContent)).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
    ])
    // Both end labels describe the scale, as separate words.
    const described = group
      .getAttribute('aria-describedby')!
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent)
    expect(described).toEqual(['Unlikely', 'Likely'])
    await click(screen.getByRole('button', { name: '9' }))
    expect(setup.sent()).toEqual(['9'])
    expect(setup.guestBubbles()).toEqual(['9'])
  })

  it('lets the visitor pick then send when one-click submit is off', async () => {
    const setup = await withInput({
      id: 'r',
      type: 'rating input',
      options: { startsAt: 1, length: 5, buttonType: 'Icons', labels: { button: 'Rate' } },
    })
    await click(screen.getByRole('button', { name: '4 of 5' }))
    expect(setup.calls.continue).toHaveLength(0)
    expect(screen.getByRole('button', { name: '4 of 5' }).getAttribute('aria-pressed')).toBe('true')
    await click(screen.getByRole('button', { name: 'Rate' }))
    expect(setup.sent()).toEqual(['4'])
    // Stars show no number: the bubble says how many out of how many, the service gets the number.
    expect(setup.guestBubbles()).toEqual(['4/5'])
  })

  it('shows an icon rating picked in one click as a score out of the scale', async () => {
    const setup = await withInput({
      id: 'r',
      type: 'rating input',
      options: { length: 5, buttonType: 'Icons', isOneClickSubmitEnabled: true },
    })
    await click(screen.getByRole('button', { name: '0 of 5' }))
    expect(setup.sent()).toEqual(['0'])
    expect(setup.guestBubbles()).toEqual(['0/5'])
  })

  it('counts from startsAt to length, as numbers', async () => {
    const setup = await withInput({ id: 'r', type: 'rating input', options: { startsAt: 1, length: 5, isOneClickSubmitEnabled: true } })
    const group = screen.getByRole('group', { name: 'Rating' })
    expect(Array.from(group.querySelectorAll('button'), (button) => button.textContent)).toEqual(['1', '2', '3', '4', '5'])
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull()
    await click(screen.getByRole('button', { name: '1' }))
    expect(setup.sent()).toEqual(['1'])
  })

  it('fills the stars up to the one picked and keeps out-of-range options sane', async () => {
    await withInput({ id: 'r', type: 'rating input', options: { length: 500, startsAt: -3 as never, buttonType: 'Icons' } })
    const buttons = Array.from(screen.getByRole('group', { name: 'Rating' }).querySelectorAll('button'))
    expect(buttons).toHaveLength(21)
    expect(buttons[0]!.getAttribute('aria-label')).toBe('0 of 20')
    await click(screen.getByRole('button', { name: '3 of 20' }))
    expect(buttons.slice(0, 5).map((button) => button.textContent)).toEqual(['★', '★', '★', '★', '☆'])
  })
})
