import { act, cleanup, fireEvent, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { settle } from '../../chat/fake-client'
import { typeAndEnter, withInput } from './with-input'

// Number, e-mail, URL and phone inputs: the field a phone keyboard needs, and the exact answer sent.

afterEach(cleanup)

describe('number input', () => {
  it('is a numeric field with min, max, step and a decimal keyboard, sending the typed number', async () => {
    const setup = await withInput({
      id: 'n',
      type: 'number input',
      options: { min: 0, max: 120, step: 0.5, labels: { placeholder: 'Your age' } },
    })
    const field = screen.getByRole('spinbutton', { name: 'Your age' })
    expect(field.getAttribute('type')).toBe('number')
    expect(field.getAttribute('inputmode')).toBe('decimal')
    expect([field.getAttribute('min'), field.getAttribute('max'), field.getAttribute('step')]).toEqual(['0', '120', '0.5'])
    await typeAndEnter(field, ' 36.5 ')
    expect(setup.sent()).toEqual(['36.5'])
    expect(screen.getByText('36.5')).toBeTruthy()
  })

  // Non-numeric bounds never reach the field: the rich inputs chunk refuses them (rich-inputs.test.tsx).
  it('accepts any step and no bounds when the flow sets none', async () => {
    await withInput({ id: 'n', type: 'number input', options: { min: null, step: null } })
    const field = screen.getByRole('spinbutton')
    expect(field.getAttribute('step')).toBe('any')
    expect(field.hasAttribute('min')).toBe(false)
    expect(field.hasAttribute('max')).toBe(false)
  })
})

describe('email input', () => {
  it('is an e-mail field with the e-mail keyboard and autocomplete, sending the address as typed', async () => {
    const setup = await withInput({
      id: 'e',
      type: 'email input',
      options: { labels: { placeholder: 'Type your email...', button: 'Go' } },
    })
    const field = screen.getByRole('textbox', { name: 'Type your email...' })
    expect([field.getAttribute('type'), field.getAttribute('inputmode'), field.getAttribute('autocomplete')]).toEqual([
      'email',
      'email',
      'email',
    ])
    expect(screen.getByRole('button', { name: 'Go' })).toBeTruthy()
    await typeAndEnter(field, 'ada@example.com')
    expect(setup.sent()).toEqual(['ada@example.com'])
  })
})

describe('url input', () => {
  it('is a URL field with the URL keyboard, sending the text for the service to validate', async () => {
    const setup = await withInput({ id: 'u', type: 'url input' })
    const field = screen.getByRole('textbox', { name: 'Type a URL…' })
    expect([field.getAttribute('type'), field.getAttribute('inputmode')]).toEqual(['url', 'url'])
    await typeAndEnter(field, 'example.com')
    expect(setup.sent()).toEqual(['example.com'])
  })
})

describe('phone number input', () => {
  it('is a tel field with the phone keyboard and autocomplete, sent with the send button', async () => {
    const setup = await withInput({ id: 'p', type: 'phone number input' })
    const field = screen.getByRole('textbox', { name: 'Type your phone number…' })
    expect([field.getAttribute('type'), field.getAttribute('inputmode'), field.getAttribute('autocomplete')]).toEqual(['tel', 'tel', 'tel'])
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement
    expect(send.disabled).toBe(true)
    await act(async () => {
      fireEvent.input(field, { target: { value: '+1 555 0100' } })
    })
    expect(send.disabled).toBe(false)
    await act(async () => {
      fireEvent.click(send)
      await settle()
    })
    expect(setup.sent()).toEqual(['+1 555 0100'])
  })
})
