import { describe, expect, it } from 'vitest'
import { parameterize } from '../../../../src/service/engine/blocks/code-params'
import { indexFlow } from '../../../../src/service/engine/core/flow-index'
import { buildFlow, varId } from '../support/flow-builder'

describe('parameterize', () => {
  const flow = buildFlow({ groups: [{ id: 'g', blocks: [] }], variables: ['Lead Score', 'Name'] })
  flow.variables?.push({ id: 'weird-id', name: 'Weird' }, { id: 'return', name: 'Reserved' })
  const index = indexFlow(flow)

  it('replaces each variable with a parameter named by its id and passes the value separately', () => {
    const result = parameterize('{{Lead Score}} + 10 + {{Lead Score}}', index, { [varId('Lead Score')]: '20' })
    expect(result).toEqual({
      code: 'vLeadScore + 10 + vLeadScore',
      args: [{ id: 'vLeadScore', value: 20 }],
    })
  })

  it('makes ids that are not usable identifiers safe, and keeps names unique', () => {
    const result = parameterize('{{Weird}} {{Reserved}} {{Nope}} {{Other}}', index, { 'weird-id': 'w', return: 'r' })
    expect(result.code).toBe('v_weird_id v_return unsetVariable unsetVariable_2')
    expect(result.args).toEqual([
      { id: 'v_weird_id', value: 'w' },
      { id: 'v_return', value: 'r' },
      { id: 'unsetVariable', value: null },
      { id: 'unsetVariable_2', value: null },
    ])
  })

  it('never splices a value into the code', () => {
    const result = parameterize('return {{Name}}', index, { [varId('Name')]: '1; while(true){}' })
    expect(result.code).toBe('return vName')
    expect(result.args).toEqual([{ id: 'vName', value: '1; while(true){}' }])
  })
})
