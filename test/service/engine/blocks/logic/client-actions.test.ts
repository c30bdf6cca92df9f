import { afterAll, describe, expect, it } from 'vitest'
import { safeRedirectUrl } from '../../../../../src/service/engine/blocks/logic/client-actions'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { buildFlow, Conversation, input, text, varId } from '../../support/flow-builder'

afterAll(closeSandbox)

/** `Site` decides where a redirect leads: this flow's author lets pages prefill it all the same. */
function start(blocks: Parameters<typeof buildFlow>[0]['groups'][0]['blocks'], prefilledVariables?: Record<string, string>) {
  const flow = buildFlow({ variables: ['Name', 'Site', 'Delay'], groups: [{ id: 'g', blocks }] })
  flow.variables = flow.variables?.map((variable) => (variable.name === 'Site' ? { ...variable, isPrefillable: true } : variable))
  return new Conversation(flow).start({ prefilledVariables })
}

describe('Redirect', () => {
  it('sends the filled-in url and whether to open a new tab, then goes on', async () => {
    const outcome = await start(
      [
        { id: 'r', type: 'Redirect', options: { url: 'https://{{Site}}/welcome?name={{Name}}', isNewTab: true } },
        text('after', 'Still here'),
      ],
      { Site: 'example.com', Name: 'Ada' },
    )
    expect(outcome.response.clientSideActions).toEqual([
      { type: 'redirect', redirect: { url: 'https://example.com/welcome?name=Ada', isNewTab: true } },
    ])
    expect(outcome.response.messages?.map((message) => message.id)).toEqual(['after'])
    expect(outcome.ended).toBe(true)
  })

  it('defaults to the same tab and reads a bare domain as https', async () => {
    const outcome = await start([{ id: 'r', type: 'Redirect', options: { url: 'example.com' } }])
    expect(outcome.response.clientSideActions).toEqual([{ type: 'redirect', redirect: { url: 'https://example.com', isNewTab: false } }])
  })

  it('refuses script urls, even when a visitor supplied them, and logs why', async () => {
    const outcome = await start([{ id: 'r', type: 'Redirect', options: { url: '{{Site}}' } }], {
      Site: 'javascript:alert(document.cookie)',
    })
    expect(outcome.response.clientSideActions).toBeUndefined()
    expect(outcome.response.logs).toEqual([
      {
        status: 'warning',
        description: 'Redirect skipped: its URL is missing or not allowed',
        details: { blockId: 'r', type: 'Redirect' },
      },
    ])
  })
})

describe('safeRedirectUrl', () => {
  it.each([
    ['https://a.test/x', 'https://a.test/x'],
    ['http://a.test', 'http://a.test'],
    ['a.test/path', 'https://a.test/path'],
    ['//a.test/path', 'https://a.test/path'],
    ['/thanks', '/thanks'],
    ['mailto:hi@a.test', 'mailto:hi@a.test'],
    ['tel:+3312345678', 'tel:+3312345678'],
  ])('allows %s', (raw, expected) => {
    expect(safeRedirectUrl(raw)).toBe(expected)
  })
  it.each(['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,x', 'vbscript:x', '', '   ', 'https://a.test/"onmouseover="x'])(
    'refuses %j',
    (raw) => {
      expect(safeRedirectUrl(raw)).toBeUndefined()
    },
  )
})

describe('Wait', () => {
  it('sends the duration as a number even when exported as text', async () => {
    const outcome = await start([{ id: 'w', type: 'Wait', options: { secondsToWaitFor: '1' } }])
    expect(outcome.response.clientSideActions).toEqual([{ type: 'wait', wait: { secondsToWaitFor: 1 } }])
  })

  it('reads the duration from a variable, and skips a duration that is not a number', async () => {
    const fromVariable = await start([{ id: 'w', type: 'Wait', options: { secondsToWaitFor: '{{Delay}}' } }], { Delay: '2.5' })
    expect(fromVariable.response.clientSideActions).toEqual([{ type: 'wait', wait: { secondsToWaitFor: 2.5 } }])
    const invalid = await start([{ id: 'w', type: 'Wait', options: { secondsToWaitFor: 'soon' } }])
    expect(invalid.response.clientSideActions).toBeUndefined()
    expect(invalid.response.logs?.[0]).toMatchObject({ status: 'warning', details: { blockId: 'w' } })
  })
})

describe('Script', () => {
  it('sends client code with each variable as a parameter named by its id and its value in args', async () => {
    const outcome = await start(
      [{ id: 's', type: 'Script', options: { content: 'console.log({{Name}}, {{Delay}}, {{Name}}, {{Unknown}})' } }],
      { Name: 'Ada', Delay: '3' },
    )
    expect(outcome.response.clientSideActions).toEqual([
      {
        type: 'scriptToExecute',
        scriptToExecute: {
          content: 'console.log(vName, vDelay, vName, unsetVariable)',
          args: [
            { id: 'vName', value: 'Ada' },
            { id: 'vDelay', value: 3 },
            { id: 'unsetVariable', value: null },
          ],
        },
      },
    ])
    expect(outcome.response.clientSideActions?.[0]?.expectsDedicatedReply).toBeUndefined()
  })

  it('runs server-side scripts in the sandbox, ignores the result and logs failures', async () => {
    const ok = await start([{ id: 's', type: 'Script', options: { content: 'return 1', isExecutedOnClient: false } }, text('t', 'done')])
    expect(ok.response.clientSideActions).toBeUndefined()
    expect(ok.response.logs).toBeUndefined()
    expect(ok.response.messages?.map((message) => message.id)).toEqual(['t'])
    const failing = await start([{ id: 's', type: 'Script', options: { content: 'throw new Error("boom")', isExecutedOnClient: false } }])
    expect(failing.response.logs).toEqual([{ status: 'error', description: 'Code failed: Error: boom', details: { blockId: 's' } }])
  })
})

describe('lastBubbleBlockId', () => {
  it('names the last bubble sent before each action in the same response', async () => {
    const outcome = await start([
      { id: 'w0', type: 'Wait', options: { secondsToWaitFor: 1 } },
      text('t1', 'One'),
      { id: 'w1', type: 'Wait', options: { secondsToWaitFor: 2 } },
      text('t2', 'Two'),
      { id: 'img', type: 'image', content: { url: 'https://img.test/x.png' } },
      { id: 's', type: 'Script', options: { content: 'go()' } },
      { id: 'w2', type: 'Wait', options: { secondsToWaitFor: 3 } },
      input('ask', 'text input', { variableId: varId('Name') }),
    ])
    expect(outcome.response.clientSideActions?.map((action) => [action.type, action.lastBubbleBlockId])).toEqual([
      ['wait', undefined],
      ['wait', 't1'],
      ['scriptToExecute', 'img'],
      ['wait', 'img'],
    ])
    expect(outcome.response.clientSideActions?.[0]).not.toHaveProperty('lastBubbleBlockId')
  })

  it('starts afresh in each response', async () => {
    const conversation = new Conversation(
      buildFlow({
        variables: ['Name'],
        groups: [
          {
            id: 'g',
            blocks: [
              text('t1', 'Hi'),
              input('ask', 'text input', { variableId: varId('Name') }),
              { id: 'w', type: 'Wait', options: { secondsToWaitFor: 1 } },
            ],
          },
        ],
      }),
    )
    await conversation.start()
    const next = await conversation.answer('Ada')
    expect(next.response.clientSideActions).toEqual([{ type: 'wait', wait: { secondsToWaitFor: 1 } }])
  })
})
