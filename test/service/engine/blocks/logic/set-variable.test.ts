import { afterAll, describe, expect, it } from 'vitest'
import { functionBody } from '../../../../../src/service/engine/blocks/logic/set-variable'
import { createEngine } from '../../../../../src/service/engine/index'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { buildFlow, Conversation, input, text, texts, varId } from '../../support/flow-builder'

afterAll(closeSandbox)

/** Set `Result` from an expression (after asking for Score and Name), then show it. */
function flowSetting(expression: string, extra: Record<string, unknown> = {}) {
  return buildFlow({
    variables: ['Score', 'Name', 'Result'],
    groups: [
      {
        id: 'g',
        blocks: [
          { id: 'set', type: 'Set variable', options: { variableId: varId('Result'), expressionToEvaluate: expression, ...extra } },
          text('show', 'Result: {{Result}}'),
          input('ask', 'text input', { variableId: varId('Name') }),
        ],
      },
    ],
  })
}

// Room for a busy machine: these runs finish in milliseconds, and the time limit has its own test.
const quickLimits = { codeTimeoutMs: 5_000, codeMemoryBytes: 8 * 1024 * 1024 }
const loopLimits = { codeTimeoutMs: 300, codeMemoryBytes: 8 * 1024 * 1024 }

async function evaluate(
  expression: string,
  variables: Record<string, string> = {},
  extra: Record<string, unknown> = {},
  limits = quickLimits,
) {
  const conversation = new Conversation(flowSetting(expression, extra), createEngine(limits))
  const prefilledVariables = Object.fromEntries(Object.entries(variables))
  const outcome = await conversation.start({ prefilledVariables })
  return { outcome, value: outcome.state.variables[varId('Result')], shown: texts(outcome)[0] }
}

describe('Set variable', () => {
  it('adds to a numeric variable: the answer text is read as a number', async () => {
    const { value, shown } = await evaluate('{{Score}} + 10', { Score: '20' })
    expect(value).toBe(30)
    expect(shown).toBe('Result: 30')
  })

  it('treats an unset variable as null in arithmetic, like flow builders do', async () => {
    expect((await evaluate('{{Score}} + 10')).value).toBe(10)
  })

  it('stores plain literals without running code', async () => {
    expect((await evaluate('42')).value).toBe(42)
    expect((await evaluate('-1.5')).value).toBe(-1.5)
    expect((await evaluate('true')).value).toBe(true)
  })

  it('falls back to plain text when the expression is not JavaScript', async () => {
    expect((await evaluate('Promoter')).value).toBe('Promoter')
    expect((await evaluate('New York')).value).toBe('New York')
    expect((await evaluate("It's {{Name}}'s turn", { Name: 'Ada' })).value).toBe("It's Ada's turn")
  })

  it('fills variables into a plain-text value', async () => {
    const { value, shown } = await evaluate('Hello {{Name}}', { Name: 'Ada' })
    expect(value).toBe('Hello Ada')
    expect(shown).toBe('Result: Hello Ada')
  })

  it('runs real code with string values as data', async () => {
    expect((await evaluate('{{Name}}.toUpperCase() + "!"', { Name: 'ada' })).value).toBe('ADA!')
    expect((await evaluate('const parts = [{{Name}}, "x"]\nreturn parts.join("-")', { Name: 'a' })).value).toBe('a-x')
    expect((await evaluate('{{Name}}', { Name: '"); while(true){} ("' })).value).toBe('"); while(true){} ("')
  })

  it('stores lists as lists and objects as JSON text', async () => {
    expect((await evaluate('["a", "b"]')).value).toEqual(['a', 'b'])
    expect((await evaluate('({ total: 3 })')).value).toBe('{"total":3}')
  })

  it('code stopped by the time limit falls back to its text; only isCode logs it', async () => {
    const loop = '(() => { while (true) {} })()'
    const quiet = await evaluate(loop, { Result: 'before' }, {}, loopLimits)
    expect(quiet.value).toBe(loop)
    expect(quiet.outcome.response.logs).toBeUndefined()
    const loud = await evaluate(loop, { Result: 'before' }, { isCode: true }, loopLimits)
    expect(loud.value).toBe(loop)
    expect(loud.outcome.response.logs).toEqual([
      { status: 'error', description: 'Code was stopped after 300 ms', details: { blockId: 'set' } },
    ])
  })

  it('code stopped by the memory cap is logged with isCode', async () => {
    // A generous deadline, so only the memory cap can stop this run.
    const memoryOnly = { codeTimeoutMs: 20_000, codeMemoryBytes: 8 * 1024 * 1024 }
    const grow = '(() => { const a = []; while (true) a.push("x".repeat(1 << 16)) })()'
    const { outcome } = await evaluate(grow, { Result: 'before' }, { isCode: true }, memoryOnly)
    expect(outcome.response.logs?.[0]).toMatchObject({ status: 'error', description: 'Code was stopped: it used too much memory' })
  })

  it('an expression that throws is its text with variables filled in; isCode logs the error', async () => {
    const quiet = await evaluate('{{Name}}.length.nope.x', { Name: 'Ada' })
    expect(quiet.value).toBe('Ada.length.nope.x')
    expect(quiet.outcome.response.logs).toBeUndefined()
    const loud = await evaluate('Hello there {{Name}}', { Name: 'Ada' }, { isCode: true })
    expect(loud.value).toBe('Hello there Ada')
    expect(loud.outcome.response.logs?.[0]).toMatchObject({ status: 'error', description: expect.stringMatching(/^Code failed: /) })
  })

  it('a single {{Var}} copies the value unchanged, a list stays a list', async () => {
    const conversation = new Conversation(
      buildFlow({
        variables: ['Tags', 'Copy'],
        groups: [
          {
            id: 'g',
            blocks: [{ id: 's', type: 'Set variable', options: { variableId: varId('Copy'), expressionToEvaluate: ' {{Tags}} ' } }],
          },
        ],
      }),
    )
    const outcome = await conversation.start({ restoredVariables: { [varId('Tags')]: ['a', 'b'] } })
    expect(outcome.state.variables[varId('Copy')]).toEqual(['a', 'b'])
  })

  it('keeps numbers with a leading zero as text (phone numbers, codes)', async () => {
    expect((await evaluate('0612345678')).value).toBe('0612345678')
  })

  it('a list answer also reads as its text: split, length and list methods all work', async () => {
    const run = async (expression: string) => {
      const flow = buildFlow({
        variables: ['Topics', 'Score'],
        groups: [
          {
            id: 'g',
            blocks: [{ id: 's', type: 'Set variable', options: { variableId: varId('Score'), expressionToEvaluate: expression } }],
          },
        ],
      })
      const outcome = await new Conversation(flow, createEngine(quickLimits)).start({
        restoredVariables: { [varId('Topics')]: ['Theming', 'Security'] },
      })
      return outcome.state.variables[varId('Score')]
    }
    // The showcase's own rating question.
    expect(await run("{{Topics}}.split(', ').length * 10")).toBe(20)
    expect(await run('{{Topics}}.length')).toBe(2)
    expect(await run("{{Topics}}.map((t) => t[0]).join('')")).toBe('TS')
    expect(await run('{{Topics}}.toUpperCase()')).toBe('THEMING, SECURITY')
  })

  it('sets the empty value and clears with type "Empty"', async () => {
    expect((await evaluate('', { Result: 'x' })).value).toBeNull()
    expect((await evaluate('ignored', { Result: 'x' }, { type: 'Empty' })).value).toBeNull()
  })

  it('logs unknown preset types and leaves the variable alone', async () => {
    const { outcome, value } = await evaluate('', { Result: 'x' }, { type: 'Weather' })
    expect(value).toBe('x')
    expect(outcome.response.logs).toEqual([
      { status: 'info', description: 'Set variable type Weather is not supported', details: { blockId: 'set' } },
    ])
  })

  it('warns when the block names no variable of the flow', async () => {
    const flow = flowSetting('1')
    ;(flow.groups[0]!.blocks[0]!.options as Record<string, unknown>).variableId = 'missing'
    const outcome = await new Conversation(flow).start()
    expect(outcome.response.logs?.[0]).toMatchObject({ status: 'warning', description: 'Set variable block has no variable to set' })
  })
})

describe('Set variable executed on the client', () => {
  it('asks the widget to run the expression and stores its reply before going on', async () => {
    const conversation = new Conversation(flowSetting('{{Score}} * 2', { isExecutedOnClient: true }))
    const first = await conversation.start({ prefilledVariables: { Score: '21' } })
    expect(first.ended).toBe(false)
    expect(first.response.messages).toEqual([])
    expect(first.response.input).toBeUndefined()
    expect(first.response.clientSideActions).toEqual([
      {
        type: 'scriptToExecute',
        scriptToExecute: { content: 'return (vScore * 2\n)', args: [{ id: 'vScore', value: 21 }] },
        expectsDedicatedReply: true,
      },
    ])
    expect(first.state.awaiting).toEqual({ kind: 'clientReply', groupId: 'g', blockId: 'set', variableId: varId('Result') })

    const second = await conversation.answer('42')
    expect(second.state.variables[varId('Result')]).toBe('42')
    expect(texts(second)).toEqual(['Result: 42'])
    expect(second.response.input?.id).toBe('ask')
    expect(second.answers).toEqual([])
  })

  it('an empty reply unsets the variable', async () => {
    const conversation = new Conversation(flowSetting('window.missing', { isExecutedOnClient: true }))
    await conversation.start({ prefilledVariables: { Result: 'before' } })
    expect((await conversation.answer('')).state.variables[varId('Result')]).toBeNull()
  })
})

describe('functionBody', () => {
  it('returns an expression, and keeps code that has its own return', () => {
    expect(functionBody('a + 1')).toBe('return (a + 1\n)')
    expect(functionBody('const x = 1\nreturn x')).toBe('const x = 1\nreturn x')
  })
})
