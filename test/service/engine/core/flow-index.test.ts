import { describe, expect, it } from 'vitest'
import { edgeTarget, groupTarget, indexFlow } from '../../../../src/service/engine/core/flow-index'
import { buildFlow, edge, text } from '../support/flow-builder'

const flow = () =>
  buildFlow({
    variables: ['Name'],
    groups: [
      { id: 'g1', blocks: [text('a', 'A', { outgoingEdgeId: 'e1' })] },
      { id: 'g2', blocks: [text('b', 'B'), text('c', 'C')] },
    ],
    edges: [edge('e1', 'a', 'g2', { toBlockId: 'c' }), edge('e2', 'a', 'g2', { toBlockId: 'a' }), edge('e3', 'a', 'gone')],
  })

describe('indexFlow', () => {
  it('finds blocks, edges, variables and the start', () => {
    const index = indexFlow(flow())
    expect(index.blocks.get('c')).toMatchObject({ index: 1, group: { id: 'g2' } })
    expect(index.variablesByName.get('Name')?.id).toBe('vName')
    expect(index.startEdgeId).toBe('edge-start')
    expect(index.progressEnabled).toBe(false)
  })

  it('resolves edges to a block of a group, its first block, or nothing', () => {
    const index = indexFlow(flow())
    expect(edgeTarget(index, 'e1')).toEqual({ groupId: 'g2', blockIndex: 1 })
    // A target block from another group falls back to the group's first block.
    expect(edgeTarget(index, 'e2')).toEqual({ groupId: 'g2', blockIndex: 0 })
    expect(edgeTarget(index, 'e3')).toBeUndefined()
    expect(edgeTarget(index, 'unknown')).toBeUndefined()
    expect(groupTarget(index, 'g1')).toEqual({ groupId: 'g1', blockIndex: 0 })
  })

  it('reuses the index for the same object and for a fresh copy of the same published version', () => {
    const original = flow()
    const index = indexFlow(original)
    expect(indexFlow(original)).toBe(index)
    expect(indexFlow(JSON.parse(JSON.stringify(original)))).toBe(index)
  })

  it('builds a new index for another published version', () => {
    const original = flow()
    const index = indexFlow(original)
    expect(indexFlow({ ...original, updatedAt: '2026-02-01T00:00:00.000Z' })).not.toBe(index)
    expect(indexFlow({ ...original, id: 'other' })).not.toBe(index)
  })
})
