import { act, cleanup, fireEvent, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { publishedFlow, textInput } from '../../chat/fake-client'
import { press, type, withInput } from './with-input'

afterEach(cleanup)

describe('TextInput', () => {
  it('uses the flow labels and sends the trimmed answer on Enter', async () => {
    const setup = await withInput(textInput('in1', { options: { labels: { placeholder: 'Your name', button: 'Go' } } }))
    const field = screen.getByRole('textbox', { name: 'Your name' })
    expect(screen.getByRole('button', { name: 'Go' })).toBeTruthy()
    await type(field, '  Ada  ')
    await press(field, {})
    expect(setup.sent()).toEqual(['Ada'])
  })

  it('does not send an empty answer', async () => {
    const setup = await withInput(textInput())
    const field = screen.getByRole('textbox')
    await type(field, '   ')
    await press(field, {})
    expect(setup.sent()).toEqual([])
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('does not send on the Enter that confirms an IME composition', async () => {
    const setup = await withInput(textInput())
    const field = screen.getByRole('textbox')
    await type(field, 'にほん')
    await act(async () => void fireEvent.compositionStart(field))
    await press(field, { isComposing: true })
    await press(field, { keyCode: 229 })
    expect(setup.sent()).toEqual([])
    await act(async () => void fireEvent.compositionEnd(field))
    await press(field, {})
    expect(setup.sent()).toEqual(['にほん'])
  })

  it('is multi-line when long: Shift+Enter breaks the line, Enter sends', async () => {
    const setup = await withInput(textInput('in1', { options: { isLong: true } }))
    const field = screen.getByRole('textbox')
    expect(field.tagName).toBe('TEXTAREA')
    await type(field, 'line one')
    await press(field, { shiftKey: true })
    expect(setup.sent()).toEqual([])
    await type(field, 'line one\nline two')
    await press(field, {})
    expect(setup.sent()).toEqual(['line one\nline two'])
  })

  it('is pre-filled with prefilledValue when input prefill is enabled', async () => {
    await withInput(textInput('in1', { prefilledValue: 'ada@example.com' }))
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('ada@example.com')
  })

  it('is empty when the flow disables input prefill', async () => {
    await withInput(textInput('in1', { prefilledValue: 'ada@example.com' }), {
      published: publishedFlow({ settings: { general: { isInputPrefillEnabled: false }, typingEmulation: { enabled: false } } }),
    })
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('')
  })

  it('uses the matching field type for numbers, emails, URLs and phone numbers', async () => {
    await withInput({ id: 'n', type: 'number input', options: { min: 1, max: 9, step: 2 } })
    const number = screen.getByRole('spinbutton')
    expect(number.getAttribute('type')).toBe('number')
    expect([number.getAttribute('min'), number.getAttribute('max'), number.getAttribute('step')]).toEqual(['1', '9', '2'])
    cleanup()
    await withInput({ id: 'e', type: 'email input' })
    expect(screen.getByRole('textbox', { name: 'Type your email…' }).getAttribute('type')).toBe('email')
  })

  it('falls back to a text field for an unknown input type, with a warning', async () => {
    for (const type of ['signature input', 'constructor', '__proto__']) {
      const setup = await withInput({ id: 'x', type })
      expect(screen.getByRole('textbox')).toBeTruthy()
      expect(setup.events.of('flowchat:log').map((log) => log.code)).toContain('unknown-input')
      cleanup()
    }
  })

  it('focuses the next input after an answer, but not the first one on load', async () => {
    await withInput(textInput())
    const field = screen.getByRole('textbox')
    expect(document.activeElement).not.toBe(field)
    await type(field, 'hi')
    await press(field, {})
    expect(document.activeElement).toBe(screen.getByRole('textbox'))
  })
})
