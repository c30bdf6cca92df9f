import { afterAll, describe, expect, it } from 'vitest'
import { chatStepResultSchema } from '../../../src/protocol/index'
import { createEngine } from '../../../src/service/engine/index'
import { closeSandbox } from '../../../src/service/engine/sandbox/sandbox'
import { buildFlow, Conversation, input, text, texts, varId } from './support/flow-builder'

afterAll(closeSandbox)

const greeting = () =>
  buildFlow({
    variables: ['Name', 'Plan'],
    groups: [
      {
        id: 'g',
        blocks: [
          text('hi', 'Hello {{Name}} on {{Plan}}'),
          input('name', 'text input', { variableId: varId('Name') }),
          text('bye', 'Bye {{Name}}'),
        ],
      },
    ],
  })

describe('createEngine', () => {
  it('starts a session: messages so far, the input, and a state to store', async () => {
    const outcome = await createEngine().start(greeting())
    expect(chatStepResultSchema.safeParse(outcome.response).success).toBe(true)
    expect(texts(outcome)).toEqual(['Hello  on '])
    expect(outcome.answers).toEqual([])
    expect(outcome.ended).toBe(false)
    expect(outcome.state).toEqual({ variables: {}, awaiting: { kind: 'input', groupId: 'g', blockId: 'name' }, visitedBlockCount: 2 })
    expect(JSON.parse(JSON.stringify(outcome.state))).toEqual(outcome.state)
  })

  it('applies prefilled variables by name and restored variables by id, prefilled winning', async () => {
    const outcome = await createEngine().start(greeting(), {
      restoredVariables: { [varId('Name')]: 'Old', [varId('Plan')]: 'Pro' },
      prefilledVariables: { Name: 'Ada', Unknown: 'ignored' },
    })
    expect(texts(outcome)).toEqual(['Hello Ada on Pro'])
    expect(outcome.state.variables).toEqual({ [varId('Name')]: 'Ada', [varId('Plan')]: 'Pro' })
    expect(outcome.response.input?.prefilledValue).toBe('Ada')
  })

  it('answers the first input with a start message in the same step', async () => {
    const outcome = await createEngine().start(greeting(), { message: 'Ada' })
    expect(texts(outcome)).toEqual(['Hello  on ', 'Bye Ada'])
    expect(outcome.answers).toMatchObject([{ blockId: 'name', value: 'Ada' }])
    expect(outcome.ended).toBe(true)
  })

  it('asks again when the start message is not a valid answer, and leaves it unused when nothing waits', async () => {
    const numberFlow = buildFlow({
      variables: ['Age'],
      groups: [{ id: 'g', blocks: [input('age', 'number input', { variableId: varId('Age') })] }],
    })
    const invalid = await createEngine().start(numberFlow, { message: { type: 'text', text: 'many' } })
    expect(texts(invalid)).toEqual(['Please enter a valid number.'])
    expect(invalid.response.input?.id).toBe('age')
    expect(invalid.answers).toEqual([])

    const noInput = await createEngine().start(buildFlow({ groups: [{ id: 'g', blocks: [text('t', 'Hi')] }] }), { message: 'hello' })
    expect(texts(noInput)).toEqual(['Hi'])
    expect(noInput.response.logs?.[0]?.description).toMatch(/start message was not used/)
  })

  it('continues from the stored state without changing it', async () => {
    const engine = createEngine()
    const flow = greeting()
    const started = await engine.start(flow)
    const snapshot = JSON.parse(JSON.stringify(started.state))
    const outcome = await engine.continue(flow, started.state, 'Ada')
    expect(started.state).toEqual(snapshot)
    expect(texts(outcome)).toEqual(['Bye Ada'])
    expect(outcome.ended).toBe(true)
    expect(outcome.state.awaiting).toBeNull()
    expect(outcome.state.visitedBlockCount).toBe(3)
  })

  it('refuses to continue a session that has ended', async () => {
    const engine = createEngine()
    const flow = greeting()
    const conversation = new Conversation(flow, engine)
    await conversation.start()
    const ended = await conversation.answer('Ada')
    await expect(engine.continue(flow, ended.state, 'again')).rejects.toMatchObject({ name: 'EngineError', code: 'session_ended' })
  })

  it('ends gracefully when the awaited block no longer exists in the flow', async () => {
    const engine = createEngine()
    const started = await engine.start(greeting())
    const changed = buildFlow({ groups: [{ id: 'g', blocks: [text('other', 'Other')] }] })
    const outcome = await engine.continue(changed, started.state, 'Ada')
    expect(outcome.ended).toBe(true)
    expect(outcome.response.messages).toEqual([])
    expect(outcome.response.logs?.[0]).toMatchObject({ status: 'error', details: { blockId: 'name' } })
  })

  it('uses the configured code limits', async () => {
    const flow = buildFlow({
      variables: ['X'],
      groups: [
        {
          id: 'g',
          blocks: [
            {
              id: 'set',
              type: 'Set variable',
              options: { variableId: varId('X'), expressionToEvaluate: '(() => { for (;;) {} })()', isCode: true },
            },
          ],
        },
      ],
    })
    const outcome = await createEngine({ codeTimeoutMs: 50 }).start(flow)
    expect(outcome.response.logs).toEqual([{ status: 'error', description: 'Code was stopped after 50 ms', details: { blockId: 'set' } }])
  })

  it('every response of a long conversation parses with the chat step schema', async () => {
    const flow = buildFlow({
      variables: ['N'],
      theme: { general: { progressBar: { isEnabled: true } } },
      groups: [
        {
          id: 'g',
          blocks: [
            { id: 'img', type: 'image', content: { url: 'https://img.test/a.png' } },
            { id: 'video', type: 'video', content: { url: 'https://vimeo.com/1234', height: '300' } },
            { id: 'wait', type: 'Wait', options: { secondsToWaitFor: '2' } },
            input('n', 'rating input', { variableId: varId('N'), length: '5' }),
            { id: 'redirect', type: 'Redirect', options: { url: 'example.com' } },
          ],
        },
      ],
    })
    const conversation = new Conversation(flow)
    await conversation.start()
    await conversation.answer('9')
    const last = await conversation.answer('4')
    expect(last.ended).toBe(true)
    for (const outcome of conversation.outcomes) expect(chatStepResultSchema.safeParse(outcome.response).success).toBe(true)
  })
})
