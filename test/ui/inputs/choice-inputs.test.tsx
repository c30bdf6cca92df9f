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

const items = [
  { id: 'a', content: 'Yes', value: 'yes-value' },
  { id: 'b', content: 'No' },
  { id: 'c', content: 'Maybe' },
]

describe('ChoiceInput', () => {
  it('answers a single choice in one click with value, else content', async () => {
    const setup = await withInput({ id: 'c1', type: 'choice input', items })
    await click(screen.getByRole('button', { name: 'Yes' }))
    expect(setup.calls.continue.map((call) => call.message)).toEqual(['yes-value'])
  })

  it('toggles several choices and sends them in the flow order', async () => {
    const setup = await withInput({ id: 'c1', type: 'choice input', items, options: { isMultipleChoice: true, buttonLabel: 'Done' } })
    const done = screen.getByRole('button', { name: 'Done' }) as HTMLButtonElement
    expect(done.disabled).toBe(true)
    await click(screen.getByRole('button', { name: 'Maybe' }))
    await click(screen.getByRole('button', { name: 'Yes' }))
    expect(screen.getByRole('button', { name: 'Yes' }).getAttribute('aria-pressed')).toBe('true')
    await click(screen.getByRole('button', { name: 'Done' }))
    expect(setup.calls.continue.map((call) => call.message)).toEqual(['yes-value, Maybe'])
  })

  it('filters the choices when searchable', async () => {
    await withInput({ id: 'c1', type: 'choice input', items, options: { isSearchable: true, searchInputPlaceholder: 'Search' } })
    await act(async () => void fireEvent.input(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'ma' } }))
    expect(screen.queryByRole('button', { name: 'Yes' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Maybe' })).toBeTruthy()
  })
})

describe('PictureChoiceInput', () => {
  it('shows pictures and answers with value, else title, else id', async () => {
    const setup = await withInput({
      id: 'p1',
      type: 'picture choice input',
      items: [
        { id: 'p-a', pictureSrc: 'https://cdn.example/a.jpg', title: 'Running', description: 'Fast' },
        { id: 'p-b', pictureSrc: 'javascript:alert(1)', title: 'Hiking', value: 'hike' },
      ],
    })
    const running = screen.getByRole('button', { name: /Running/ })
    expect(running.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example/a.jpg')
    expect(screen.getByRole('button', { name: /Hiking/ }).querySelector('img')).toBeNull()
    await click(running)
    expect(setup.calls.continue.map((call) => call.message)).toEqual(['Running'])
  })
})
