import { afterAll, describe, expect, it } from 'vitest'
import type { VariableValue } from '../../../../../src/protocol/index'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { buildFlow, Conversation, input, text, texts, varId } from '../../support/flow-builder'

afterAll(closeSandbox)

/** The step's clock: dates come from it, not from the machine's (tests pin it; so does a replayed step). */
const NOW = new Date('2026-03-08T23:30:00.000Z')
const VARIABLES = ['Target', 'List', 'Item', 'Names', 'Emails', 'Name', 'Saved']

/** Runs one Set variable of `type` on `Target`, starting from `values` (by variable name). */
async function setWith(type: string, options: Record<string, unknown> = {}, values: Record<string, VariableValue> = {}) {
  const flow = buildFlow({
    variables: VARIABLES,
    groups: [{ id: 'g', blocks: [{ id: 'set', type: 'Set variable', options: { variableId: varId('Target'), type, ...options } }] }],
  })
  const restoredVariables = Object.fromEntries(Object.entries(values).map(([name, value]) => [varId(name), value]))
  const outcome = await new Conversation(flow, undefined, { resultId: 'result-42', now: () => NOW }).start({ restoredVariables })
  return { outcome, value: outcome.state.variables[varId('Target')], variables: outcome.state.variables }
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe('Set variable types', () => {
  it("Now, Yesterday and Tomorrow are ISO timestamps a day apart, read from the step's clock", async () => {
    expect((await setWith('Now')).value).toBe('2026-03-08T23:30:00.000Z')
    expect((await setWith('Yesterday')).value).toBe('2026-03-07T23:30:00.000Z')
    expect((await setWith('Tomorrow')).value).toBe('2026-03-09T23:30:00.000Z')
  })

  it('a time zone (variables allowed) gives local time with its offset; an unknown one falls back to UTC with a warning', async () => {
    const kolkata = (await setWith('Now', { timeZone: '{{Name}}' }, { Name: 'Asia/Kolkata' })).value as string
    expect(kolkata).toBe('2026-03-09T05:00:00+05:30')
    const unknown = await setWith('Tomorrow', { timeZone: 'Mars/Olympus' })
    expect(unknown.value).toMatch(ISO_UTC)
    expect(unknown.outcome.response.logs?.[0]).toMatchObject({ status: 'warning' })
  })

  it('Today is the date, Random ID a fresh id each time', async () => {
    expect((await setWith('Today')).value).toBe('2026-03-08')
    const a = (await setWith('Random ID')).value
    expect(a).toMatch(/^[0-9a-f-]{36}$/)
    expect((await setWith('Random ID')).value).not.toBe(a)
  })

  it('Result ID and User ID are the session’s result id; Environment name is web', async () => {
    expect((await setWith('Result ID')).value).toBe('result-42')
    expect((await setWith('User ID')).value).toBe('result-42')
    expect((await setWith('Environment name')).value).toBe('web')
  })

  it('Empty, Phone number and Contact name (messaging apps only) clear the variable', async () => {
    for (const type of ['Empty', 'Phone number', 'Contact name']) {
      expect((await setWith(type, {}, { Target: 'x' })).value).toBeNull()
    }
  })

  it('Append value(s) adds text, or every item of a single {{List}}, to the list', async () => {
    expect((await setWith('Append value(s)', { item: 'Hi {{Name}}' }, { Name: 'Ada' })).value).toEqual(['Hi Ada'])
    expect((await setWith('Append value(s)', { item: 'c' }, { Target: ['a', 'b'] })).value).toEqual(['a', 'b', 'c'])
    expect((await setWith('Append value(s)', { item: 'b' }, { Target: 'a' })).value).toEqual(['a', 'b'])
    expect((await setWith('Append value(s)', { item: '{{List}}' }, { Target: ['a'], List: ['b', 'c'] })).value).toEqual(['a', 'b', 'c'])
  })

  it('Pop and Shift take the last or first item, saving it when asked', async () => {
    const popped = await setWith('Pop', { saveItemInVariableId: varId('Saved') }, { Target: ['a', 'b', 'c'] })
    expect(popped.value).toEqual(['a', 'b'])
    expect(popped.variables[varId('Saved')]).toBe('c')
    const shifted = await setWith('Shift', { saveItemInVariableId: varId('Saved') }, { Target: ['a', 'b', 'c'] })
    expect(shifted.value).toEqual(['b', 'c'])
    expect(shifted.variables[varId('Saved')]).toBe('a')
    // A single value is a list of one: taking it leaves nothing.
    const single = await setWith('Pop', { saveItemInVariableId: varId('Saved') }, { Target: 'only' })
    expect([single.value, single.variables[varId('Saved')]]).toEqual([null, 'only'])
  })

  it('Map item with same index finds the item at the base item’s position in another list', async () => {
    const params = { baseItemVariableId: varId('Name'), baseListVariableId: varId('Names'), targetListVariableId: varId('Emails') }
    const lists = { Names: ['Ada', 'Grace'], Emails: ['ada@example.com', 'grace@example.com'] }
    expect((await setWith('Map item with same index', { mapListItemParams: params }, { ...lists, Name: 'Grace' })).value).toBe(
      'grace@example.com',
    )
    expect(
      (await setWith('Map item with same index', { mapListItemParams: params }, { ...lists, Name: 'Linus', Target: 'x' })).value,
    ).toBeNull()
  })

  it('Moment of the day is asked from the visitor’s browser (their clock)', async () => {
    const { outcome } = await setWith('Moment of the day')
    expect(outcome.response.clientSideActions?.[0]).toMatchObject({ type: 'scriptToExecute', expectsDedicatedReply: true })
    expect(outcome.state.awaiting).toMatchObject({ kind: 'clientReply', variableId: varId('Target') })
  })
})

describe('Set variable "Transcript"', () => {
  it('holds the conversation so far, bot and visitor, across steps', async () => {
    const flow = buildFlow({
      variables: ['Name', 'Log'],
      groups: [
        {
          id: 'g',
          blocks: [
            text('hi', 'What is your name?'),
            input('ask', 'text input', { variableId: varId('Name') }),
            text('nice', 'Nice to meet you {{Name}}'),
            { id: 'set', type: 'Set variable', options: { variableId: varId('Log'), type: 'Transcript' } },
            text('show', '{{Log}}'),
          ],
        },
      ],
    })
    const conversation = new Conversation(flow)
    await conversation.start()
    const outcome = await conversation.answer('Ada')
    expect(outcome.state.variables[varId('Log')]).toBe(
      'Assistant: "What is your name?"\n\nUser: "Ada"\n\nAssistant: "Nice to meet you Ada"',
    )
    expect(texts(outcome)).toHaveLength(2)
  })

  it('is not kept for flows without a Transcript block', async () => {
    const flow = buildFlow({ groups: [{ id: 'g', blocks: [text('hi', 'Hi'), input('ask', 'text input')] }] })
    expect((await new Conversation(flow).start()).state.transcript).toBeUndefined()
  })
})
