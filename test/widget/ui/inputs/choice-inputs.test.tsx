import { act, cleanup, fireEvent, screen, within } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import { textInput } from '../../chat/fake-client'
import { click, withInput } from './with-input'

afterEach(cleanup)

const items = [
  { id: 'a', content: 'Yes', value: 'yes-value' },
  { id: 'b', content: 'No' },
  { id: 'c', content: 'Maybe' },
]

describe('ChoiceInput', () => {
  it('answers a single choice in one click with value, else content, and shows the label read', async () => {
    const setup = await withInput({ id: 'c1', type: 'choice input', items })
    await click(screen.getByRole('button', { name: 'Yes' }))
    expect(setup.sent()).toEqual(['yes-value'])
    expect(setup.guestBubbles()).toEqual(['Yes'])
  })

  it('shows the content of a choice without a value both as the answer and in the bubble', async () => {
    const setup = await withInput({ id: 'c1', type: 'choice input', items })
    await click(screen.getByRole('button', { name: 'Maybe' }))
    expect(setup.sent()).toEqual(['Maybe'])
    expect(setup.guestBubbles()).toEqual(['Maybe'])
  })

  it("lets the service's reformatted answer replace the label once it accepts it", async () => {
    const setup = await withInput(
      { id: 'c1', type: 'choice input', items },
      { reply: { lastMessageNewFormat: 'Yes, please', input: textInput('next') } },
    )
    await click(screen.getByRole('button', { name: 'Yes' }))
    expect(setup.sent()).toEqual(['yes-value'])
    expect(setup.guestBubbles()).toEqual(['Yes, please'])
  })

  it('toggles several choices and sends them in the flow order', async () => {
    const setup = await withInput({ id: 'c1', type: 'choice input', items, options: { isMultipleChoice: true, buttonLabel: 'Done' } })
    const done = screen.getByRole('button', { name: 'Done' }) as HTMLButtonElement
    expect(done.disabled).toBe(true)
    await click(screen.getByRole('button', { name: 'Maybe' }))
    await click(screen.getByRole('button', { name: 'Yes' }))
    expect(screen.getByRole('button', { name: 'Yes' }).getAttribute('aria-pressed')).toBe('true')
    await click(screen.getByRole('button', { name: 'Done' }))
    expect(setup.sent()).toEqual(['yes-value, Maybe'])
    expect(setup.guestBubbles()).toEqual(['Yes, Maybe'])
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
    expect(setup.sent()).toEqual(['Running'])
    expect(setup.guestBubbles()).toEqual(['Running'])
  })

  it('sends the value of a picture and shows its title', async () => {
    const setup = await withInput({
      id: 'p1',
      type: 'picture choice input',
      items: [{ id: 'p-b', pictureSrc: 'https://cdn.example/b.jpg', title: 'Hiking', description: 'Slow', value: 'hike' }],
    })
    await click(screen.getByRole('button', { name: /Hiking/ }))
    expect(setup.sent()).toEqual(['hike'])
    expect(setup.guestBubbles()).toEqual(['Hiking'])
  })

  it('toggles several pictures and sends value, else title, joined with ", "', async () => {
    const setup = await withInput({
      id: 'p2',
      type: 'picture choice input',
      options: { isMultipleChoice: true, buttonLabel: 'Next' },
      items: [
        { id: 'p-a', pictureSrc: 'https://cdn.example/a.jpg', title: 'Energy', description: 'Bars and gels' },
        { id: 'p-b', pictureSrc: 'https://cdn.example/b.jpg', title: 'Hydration' },
        { id: 'p-c', pictureSrc: 'https://cdn.example/c.jpg', title: 'Recovery', value: 'recover' },
      ],
    })
    // The picture is decoration next to its title; the title and description name the card.
    const energy = screen.getByRole('button', { name: 'Energy Bars and gels' })
    expect(energy.querySelector('img')?.getAttribute('alt')).toBe('')
    await click(screen.getByRole('button', { name: 'Recovery' }))
    await click(energy)
    await click(screen.getByRole('button', { name: 'Hydration' }))
    await click(screen.getByRole('button', { name: 'Hydration' }))
    expect(energy.getAttribute('aria-pressed')).toBe('true')
    await click(screen.getByRole('button', { name: 'Next' }))
    expect(setup.sent()).toEqual(['Energy, recover'])
    expect(setup.guestBubbles()).toEqual(['Energy, Recovery'])
  })

  it('names a card without a title by its picture, with the id as the answer', async () => {
    const setup = await withInput({
      id: 'p3',
      type: 'picture choice input',
      items: [{ id: 'p-x', pictureSrc: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=', description: 'Blue' }],
    })
    const card = screen.getByRole('button', { name: /Blue/ })
    expect(card.querySelector('img')?.getAttribute('alt')).toBe('Blue')
    await click(card)
    expect(setup.sent()).toEqual(['p-x'])
    // The visitor never saw the id: the bubble repeats the description that named the card.
    expect(setup.guestBubbles()).toEqual(['Blue'])
  })
})

describe('choice input by keyboard and in long lists', () => {
  const flavours = ['Chocolate', 'Vanilla', 'Berries', 'Caramel', 'Nuts', 'Coffee', 'Lime', 'Watermelon', 'Maple Syrup'].map(
    (content, i) => ({ id: `f${i}`, content }),
  )

  it('is made of real buttons, which keyboards operate natively, in a named group', async () => {
    await withInput({ id: 'c1', type: 'choice input', items })
    const group = screen.getByRole('group', { name: 'Choices' })
    for (const button of within(group).getAllByRole('button')) {
      expect(button.tagName).toBe('BUTTON')
      expect(button.getAttribute('type')).toBe('button')
      expect(button.getAttribute('tabindex')).toBeNull()
    }
  })

  it('narrows a long searchable list, keeps choices made before filtering and sends them in flow order', async () => {
    const setup = await withInput({
      id: 'c2',
      type: 'choice input',
      items: flavours,
      options: { isMultipleChoice: true, isSearchable: true },
    })
    const search = screen.getByRole('searchbox', { name: 'Filter the choices' })
    await click(screen.getByRole('button', { name: 'Lime' }))
    await act(async () => void fireEvent.input(search, { target: { value: 'CHOC' } }))
    // The group holds the choices; sending them is a button of its own, after the group.
    expect(
      within(screen.getByRole('group', { name: 'Choices' }))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Chocolate'])
    await click(screen.getByRole('button', { name: 'Chocolate' }))
    expect(screen.getByRole('status').textContent).toBe('2 choices selected')
    await click(screen.getByRole('button', { name: 'Send' }))
    expect(setup.sent()).toEqual(['Chocolate, Lime'])
    expect(setup.guestBubbles()).toEqual(['Chocolate, Lime'])
  })
})
