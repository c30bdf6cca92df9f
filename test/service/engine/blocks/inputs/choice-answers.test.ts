import { describe, expect, it } from 'vitest'
import { matchChoice } from '../../../../../src/service/engine/blocks/inputs/choice-answers'
import type { RenderedItem } from '../../../../../src/service/engine/blocks/inputs/choice-items'

const items: RenderedItem[] = [
  { id: 'a', content: 'Yes' },
  { id: 'b', content: 'No thanks', value: 'no' },
  { id: 'c', content: 'Salt, pepper' },
  { id: 'd', content: 'Salt' },
]
const ids = (matched: RenderedItem[] | undefined) => matched?.map((item) => item.id)

describe('matchChoice (single)', () => {
  it('matches the stored value or the label, ignoring case and spaces', () => {
    expect(ids(matchChoice('yes', items, false, false))).toEqual(['a'])
    expect(ids(matchChoice('  NO ', items, false, false))).toEqual(['b'])
    expect(ids(matchChoice('No thanks', items, false, false))).toEqual(['b'])
  })
  it('refuses anything else, including several items', () => {
    expect(matchChoice('Maybe', items, false, false)).toBeUndefined()
    expect(matchChoice('Yes, no', items, false, false)).toBeUndefined()
  })
})

describe('matchChoice (multiple)', () => {
  it('splits on commas, keeps the order and drops repeats', () => {
    expect(ids(matchChoice('no, Yes, yes', items, false, true))).toEqual(['b', 'a'])
  })
  it('recognises an item whose own text contains a comma', () => {
    expect(ids(matchChoice('Salt, pepper', items, false, true))).toEqual(['c'])
    expect(ids(matchChoice('Yes, Salt, pepper, Salt', items, false, true))).toEqual(['a', 'c', 'd'])
  })
  it('refuses the whole answer when one piece is unknown, or when nothing is chosen', () => {
    expect(matchChoice('Yes, Maybe', items, false, true)).toBeUndefined()
    expect(matchChoice(' , ', items, false, true)).toBeUndefined()
  })
})

describe('matchChoice (pictures)', () => {
  const pictures: RenderedItem[] = [
    { id: 'p1', title: 'Energy', pictureSrc: 'https://x.test/1.png' },
    { id: 'p2', title: 'Hydration', value: 'hydr' },
    { id: 'p3', pictureSrc: 'https://x.test/3.png' },
  ]
  it('matches value ?? title ?? id, and also the title', () => {
    expect(ids(matchChoice('Energy', pictures, true, false))).toEqual(['p1'])
    expect(ids(matchChoice('hydr', pictures, true, false))).toEqual(['p2'])
    expect(ids(matchChoice('Hydration', pictures, true, false))).toEqual(['p2'])
    expect(ids(matchChoice('p3', pictures, true, false))).toEqual(['p3'])
    expect(ids(matchChoice('Energy, hydr', pictures, true, true))).toEqual(['p1', 'p2'])
  })
})
