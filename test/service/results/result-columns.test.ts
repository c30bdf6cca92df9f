import { describe, expect, it } from 'vitest'
import { columnsOf } from '../../../src/service/results/result-columns'
import type { VersionColumnRow } from '../../../src/service/store/published-flows-repository'

const input = (id: string, type: string, variableId?: string) => ({ id, type, options: variableId ? { variableId } : {} })
const group = (id: string, title: string, blocks: unknown[]) => ({ id, title, blocks })
const names = (content: Record<string, unknown>, versions: VersionColumnRow[] = []) =>
  columnsOf(content, versions).map((column) => `${column.kind}:${column.id}=${column.name}`)

describe('the columns of a results table', () => {
  it('names inputs by their variable, else by their group, and makes every name unique', () => {
    const content = {
      groups: [
        group('g1', 'Contact', [input('a', 'email input'), input('b', 'phone number input'), { id: 't', type: 'text' }]),
        group('g2', '', [input('c', 'url input')]),
        group('g3', 'Again', [input('d', 'text input', 'v1'), input('e', 'text input', 'v1'), input('f', 'text input', 'v-missing')]),
      ],
      variables: [{ id: 'v1', name: 'Contact' }, { id: 'v2', name: 'Contact' }, { id: 'v3' }],
    }
    expect(names(content)).toEqual([
      'input:a=Contact',
      'input:b=Contact (2)',
      'input:c=url input',
      'input:d=Contact (3)',
      'input:e=Contact (4)',
      'input:f=Again',
      'variable:v2=Contact (5)',
      'variable:v3=v3',
    ])
  })

  it('adds the blocks and variables of published versions after the flow’s own, newest version first', () => {
    const versions: VersionColumnRow[] = [
      { kind: 'block', id: 'old', type: 'rating input', group_id: 'g0', title: 'Score', variable_id: null },
      { kind: 'block', id: 'a', type: 'email input', group_id: 'g0', title: 'Old title', variable_id: null },
      { kind: 'variable', id: 'gone', type: null, group_id: null, title: 'Gone', variable_id: null },
    ]
    const content = { groups: [group('g1', 'Contact', [input('a', 'email input')])], variables: [] }
    expect(names(content, versions)).toEqual(['input:a=Contact', 'input:old=Score', 'variable:gone=Gone'])
  })

  it('keeps a variable apart from a block with the same id', () => {
    const content = { groups: [group('g1', 'G', [input('same', 'text input')])], variables: [{ id: 'same', name: 'Same' }] }
    expect(names(content)).toEqual(['input:same=G', 'variable:variable:same=Same'])
  })

  it('reads what it can of malformed content and preferences', () => {
    const content = {
      groups: [null, 'x', { id: 'g', blocks: 'nope' }, group('g1', 'G', [null, { type: 'text input' }, input('ok', 'text input')])],
      variables: 'nope',
      resultsTablePreferences: { columnsOrder: 'ok', columnsVisibility: [], columnsWidth: { ok: Number.POSITIVE_INFINITY } },
    }
    expect(columnsOf(content, [])).toEqual([
      { id: 'ok', name: 'G', kind: 'input', blockId: 'ok', groupId: 'g1', blockType: 'text input', hidden: false },
    ])
  })
})
