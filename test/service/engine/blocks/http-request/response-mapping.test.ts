import { afterAll, describe, expect, it } from 'vitest'
import { applyResponseMapping } from '../../../../../src/service/engine/blocks/http-request/response-mapping'
import { indexFlow } from '../../../../../src/service/engine/core/flow-index'
import { Step } from '../../../../../src/service/engine/core/step'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { buildFlow, varId } from '../../support/flow-builder'

afterAll(closeSandbox)

const names = ['Status', 'Title', 'Genres', 'Id', 'Whole', 'Count', 'Broken', 'Missing', 'Key', 'Flag', 'Field']
const index = indexFlow(buildFlow({ variables: names, groups: [{ id: 'g', blocks: [] }] }))

async function mapped(
  mappings: Array<[string, string]>,
  response: { statusCode: number; data: unknown },
  initial: Record<string, string> = {},
) {
  const step = new Step(index, { ...initial }, { timeoutMs: 500, memoryBytes: 16 * 1024 * 1024 })
  const options = { responseVariableMapping: mappings.map(([name, bodyPath], i) => ({ id: `m${i}`, variableId: varId(name), bodyPath })) }
  await applyResponseMapping(step, options, response, 'block')
  return { variables: step.variables, logs: step.logs }
}

const movies = {
  statusCode: 200,
  data: {
    imdb_id: 'tt001',
    results: [
      { id: 1, title: 'Metropolis', genres: [{ name: 'Sci-Fi' }, { name: 'Drama' }] },
      { id: 2, title: 'Nosferatu', genres: [{ name: 'Horror' }] },
    ],
  },
}

describe('responseVariableMapping', () => {
  it('reads nested paths, arrays and expressions in the sandbox', async () => {
    const { variables } = await mapped(
      [
        ['Status', 'statusCode'],
        ['Title', 'data.results[0].title'],
        ['Genres', 'data.results[0].genres.flatMap(item => item.name)'],
        ['Id', 'data.results.map(r => r.id)'],
        ['Whole', 'data.results[1]'],
        ['Count', 'data.results.filter(r => r.genres.length > 1).length * 10'],
        ['Flag', 'data.imdb_id.startsWith("tt")'],
      ],
      movies,
    )
    expect(variables).toEqual({
      [varId('Status')]: 200,
      [varId('Title')]: 'Metropolis',
      [varId('Genres')]: ['Sci-Fi', 'Drama'],
      [varId('Id')]: ['1', '2'],
      [varId('Whole')]: '{"id":2,"title":"Nosferatu","genres":[{"name":"Horror"}]}',
      [varId('Count')]: 10,
      [varId('Flag')]: true,
    })
  })

  it('fills {{Var}} in a path first, skips an expression that throws, and clears on undefined', async () => {
    const { variables, logs } = await mapped(
      [
        ['Title', 'data.results[{{Key}}].title'],
        ['Broken', 'data.nothing.here'],
        ['Missing', 'data.absent'],
        ['Status', 'this is not JavaScript'],
      ],
      movies,
      { [varId('Key')]: '1', [varId('Broken')]: 'kept', [varId('Missing')]: 'cleared' },
    )
    expect(variables[varId('Title')]).toBe('Nosferatu')
    expect(variables[varId('Broken')]).toBe('kept')
    expect(variables[varId('Missing')]).toBeNull()
    expect(variables).not.toHaveProperty(varId('Status'))
    expect(logs).toEqual([])
  })

  it('passes variables to an expression as values, so an answer cannot become code', async () => {
    const api = { statusCode: 200, data: { items: [{ name: 'Widget' }, { name: 'Gadget' }], internal: { apiKey: 'sk-private' } } }
    const injection = "0].name + ' | ' + JSON.stringify(data.internal) + ' | ' + data.items[0"
    const attacked = await mapped([['Title', 'data.items[{{Key}}].name']], api, { [varId('Key')]: injection })
    expect(JSON.stringify(attacked.variables)).not.toContain('sk-private')
    expect(attacked.variables).not.toHaveProperty(varId('Title'))

    const honest = await mapped(
      [
        ['Title', 'data.items[{{Key}}].name'],
        ['Whole', 'data.{{Field}}'],
        ['Missing', 'data.absent?.{{Field}}'],
        ['Flag', 'statusCode === {{Status}}'],
      ],
      api,
      { [varId('Key')]: '1', [varId('Field')]: 'items', [varId('Status')]: '200' },
    )
    expect(honest.variables).toMatchObject({
      [varId('Title')]: 'Gadget',
      [varId('Whole')]: ['{"name":"Widget"}', '{"name":"Gadget"}'],
      [varId('Missing')]: null,
      [varId('Flag')]: true,
    })
  })

  it('keeps a variable whose id is `data` or `statusCode` from shadowing the answer', async () => {
    const flow = buildFlow({ groups: [{ id: 'g', blocks: [] }] })
    flow.variables = ['data', 'statusCode', 'Out'].map((name) => ({ id: name, name }))
    const step = new Step(indexFlow(flow), { data: 'not the answer', statusCode: '7' }, { timeoutMs: 500, memoryBytes: 16 * 1024 * 1024 })
    const options = {
      responseVariableMapping: [{ id: 'm', variableId: 'Out', bodyPath: 'data.value + {{data}} + {{statusCode}} + statusCode' }],
    }
    await applyResponseMapping(step, options, { statusCode: 200, data: { value: 'answer ' } }, 'block')
    expect(step.variables.Out).toBe('answer not the answer7200')
  })

  it('maps error answers and text answers too', async () => {
    const error = await mapped(
      [
        ['Status', 'statusCode'],
        ['Title', 'data.error'],
      ],
      { statusCode: 503, data: { error: 'down' } },
    )
    expect(error.variables).toMatchObject({ [varId('Status')]: 503, [varId('Title')]: 'down' })
    const text = await mapped([['Title', 'data']], { statusCode: 200, data: 'plain text' })
    expect(text.variables[varId('Title')]).toBe('plain text')
  })

  it('stops code that never ends, with a log, and keeps the service running', async () => {
    const { variables, logs } = await mapped([['Title', '(() => { for (;;) {} })()']], movies)
    expect(variables).not.toHaveProperty(varId('Title'))
    expect(logs[0]).toMatchObject({ status: 'error', description: expect.stringContaining('stopped after') })
  })

  it('ignores mappings without a known variable or a path', async () => {
    const step = new Step(index, {}, { timeoutMs: 500, memoryBytes: 16 * 1024 * 1024 })
    await applyResponseMapping(
      step,
      { responseVariableMapping: [{ id: 'a', variableId: 'unknown', bodyPath: 'data' }, { id: 'b', variableId: varId('Title') }, 'junk'] },
      movies,
      'block',
    )
    expect(step.variables).toEqual({})
  })
})
