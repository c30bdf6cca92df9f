import { describe, expect, it } from 'vitest'
import { indexFlow } from '../../../../src/service/engine/core/flow-index'
import { escapeHtml, formatValue, initialVariables, isSet, substitute, valueForCode } from '../../../../src/service/engine/core/variables'
import { buildFlow, Conversation, edge, input, text, texts, varId } from '../support/flow-builder'

const index = indexFlow(buildFlow({ groups: [{ id: 'g', blocks: [] }], variables: ['Name', 'Lead Score', 'Tags', 'Flag'] }))

describe('substitute', () => {
  const variables = { [varId('Name')]: 'Ada', [varId('Lead Score')]: 30, [varId('Tags')]: ['a', 'b'], [varId('Flag')]: false }

  it('fills every known variable by name, ignoring spaces inside the braces', () => {
    expect(substitute('Hi {{Name}}, score {{ Lead Score }}', index, variables)).toBe('Hi Ada, score 30')
  })

  it('joins lists with ", " and writes booleans as text', () => {
    expect(substitute('{{Tags}} / {{Flag}}', index, variables)).toBe('a, b / false')
  })

  it('turns unknown and unset variables into empty text', () => {
    expect(substitute('[{{Nope}}][{{Name}}]', index, {})).toBe('[][]')
  })

  it('does not substitute again inside a value, so answers cannot pull in other variables', () => {
    expect(substitute('{{Name}}', index, { [varId('Name')]: '{{Lead Score}}', [varId('Lead Score')]: 1 })).toBe('{{Lead Score}}')
  })

  it('escapes only the values when asked to', () => {
    const html = substitute('<b>{{Name}}</b>', index, { [varId('Name')]: '<img src=x onerror=alert(1)>' }, escapeHtml)
    expect(html).toBe('<b>&lt;img src=x onerror=alert(1)&gt;</b>')
  })
})

describe('values', () => {
  it('formats and tests values the way flows read them', () => {
    expect(formatValue(null)).toBe('')
    expect(formatValue(['x', 'y'])).toBe('x, y')
    expect(isSet('  ')).toBe(false)
    expect(isSet([])).toBe(false)
    expect(isSet(0)).toBe(true)
    expect(isSet(false)).toBe(true)
  })

  it('gives code numeric answers as numbers and everything else as is', () => {
    expect(valueForCode('30')).toBe(30)
    expect(valueForCode(' -2.5 ')).toBe(-2.5)
    expect(valueForCode('0x10')).toBe('0x10')
    expect(valueForCode('Ada')).toBe('Ada')
    expect(valueForCode(undefined)).toBeNull()
    expect(valueForCode(['1'])).toEqual(['1'])
  })
})

describe('initialVariables', () => {
  it('layers flow defaults, restored values and prefilled values, by name for the last', () => {
    const flow = buildFlow({ groups: [{ id: 'g', blocks: [] }], variables: ['Name', 'Flag'] })
    flow.variables = [
      { id: varId('Name'), name: 'Name', value: 'Default' },
      { id: varId('Flag'), name: 'Flag' },
    ]
    const own = indexFlow(flow)
    expect(initialVariables(own)).toEqual({ [varId('Name')]: 'Default' })
    expect(
      initialVariables(own, {
        restoredVariables: { [varId('Name')]: 'Restored', [varId('Flag')]: true, unknown: 'x' },
        prefilledVariables: { Name: 'Prefilled', Missing: 'ignored' },
      }),
    ).toEqual({ [varId('Name')]: 'Prefilled', [varId('Flag')]: true })
  })
})

describe('variable ids that name Object members', () => {
  // Ids come from the flow: these must behave like any other id, never read or set a prototype.
  const flow = () =>
    buildFlow({
      variables: [],
      groups: [
        {
          id: 'g',
          blocks: [
            text('before', '[{{Ctor}}][{{ToStr}}][{{Proto}}]'),
            { id: 'set', type: 'Set variable', options: { variableId: '__proto__', expressionToEvaluate: '42' } },
            {
              id: 'cond',
              type: 'Condition',
              items: [
                {
                  id: 'c1',
                  outgoingEdgeId: 'e-set',
                  content: { comparisons: [{ variableId: 'constructor', comparisonOperator: 'Is set' }] },
                },
              ],
            },
            text('after', '[{{Ctor}}][{{Proto}}]'),
            input('ask', 'text input', { variableId: 'constructor' }),
            text('echo', '[{{Ctor}}][{{Proto}}]'),
          ],
        },
        { id: 'wrong', blocks: [text('wrong-branch', 'an unset variable counted as set')] },
      ],
      edges: [edge('e-set', 'cond', 'wrong')],
    })
  const withIds = () => {
    const built = flow()
    built.variables = [
      { id: 'constructor', name: 'Ctor' },
      { id: 'toString', name: 'ToStr' },
      { id: '__proto__', name: 'Proto' },
    ]
    return built
  }

  it('are unset until set, hold what they are given, and survive the stored state', async () => {
    const conversation = new Conversation(withIds())
    const first = await conversation.start()
    expect(texts(first)).toEqual(['[][][]', '[][42]'])
    const second = await conversation.answer('Ada')
    expect(texts(second)).toEqual(['[Ada][42]'])
    expect(Object.getPrototypeOf(second.state.variables)).toBeNull()
    expect(JSON.parse(JSON.stringify(second.state.variables))).toEqual(JSON.parse('{"__proto__": 42, "constructor": "Ada"}'))
  })

  it('start from a resumed result without touching prototypes', () => {
    const restored = JSON.parse('{"__proto__": "kept", "constructor": "also kept"}')
    const variables = initialVariables(indexFlow(withIds()), { restoredVariables: restored })
    expect(Object.getPrototypeOf(variables)).toBeNull()
    // biome-ignore lint/suspicious/noProto: a variable named __proto__ is data, and the test reads it as such
    expect(variables.__proto__).toBe('kept')
    expect(variables.constructor).toBe('also kept')
    expect(variables.toString).toBeUndefined()
  })
})
