import { describe, expect, it } from 'vitest'
import { snippet } from '../../src/admin/embed/snippets'
import { move, preferencesOf } from '../../src/admin/results/columns'
import type { ResultColumn as Column } from '../../src/protocol/results'

const INPUT = { origin: 'https://chat.example.com', publicId: 'help-desk-a1b2', token: 'fs_pk_abc' }

describe('embed snippets', () => {
  it('write each mode as the embedding page does, with the service, the flow and the token', () => {
    expect(snippet('inline', INPUT)).toBe(
      '<script src="https://chat.example.com/widget/v1/flow-chat.js" defer\n  data-flow="help-desk-a1b2" data-api-host="https://chat.example.com" data-token="fs_pk_abc"></script>',
    )
    expect(snippet('bubble', INPUT)).toContain('data-token="fs_pk_abc" data-mode="bubble"></script>')
    expect(snippet('popup', INPUT)).toContain('data-mode="popup"')
    expect(snippet('share', INPUT)).toBe('https://chat.example.com/help-desk-a1b2')
  })

  it('never lets a value close its attribute', () => {
    const hostile = snippet('inline', { ...INPUT, token: '"><img src=x onerror=alert(1)>' })
    expect(hostile).not.toContain('"><img')
    expect(hostile).toContain('data-token="&quot;>&lt;img src=x onerror=alert(1)>"')
  })
})

describe('results table columns', () => {
  const columns: Column[] = [
    { id: 'a', name: 'A', kind: 'input', hidden: false, width: 120 },
    { id: 'b', name: 'B', kind: 'input', hidden: true },
    { id: 'c', name: 'C', kind: 'variable', hidden: false },
  ]

  it('move within the list, never past its ends', () => {
    expect(move(columns, 2, -1).map((column) => column.id)).toEqual(['a', 'c', 'b'])
    expect(move(columns, 0, -1).map((column) => column.id)).toEqual(['a', 'b', 'c'])
    expect(move(columns, 2, 1).map((column) => column.id)).toEqual(['a', 'b', 'c'])
  })

  it('become resultsTablePreferences: the order, each column shown or not, the widths set', () => {
    expect(preferencesOf(columns)).toEqual({
      columnsOrder: ['a', 'b', 'c'],
      columnsVisibility: { a: true, b: false, c: true },
      columnsWidth: { a: 120 },
    })
  })
})
