import { afterAll, describe, expect, it } from 'vitest'
import { closeSandbox } from '../../../src/service/engine/sandbox/sandbox'
import { buildFlow, Conversation, input, text, varId } from './support/flow-builder'

afterAll(closeSandbox)

const setVariable = (id: string, name: string, expression: string) => ({
  id,
  type: 'Set variable',
  options: { variableId: varId(name), expressionToEvaluate: expression },
})

const avatarFlow = (hostUrl: string, guestUrl = 'https://example.com/guest.png') =>
  buildFlow({
    variables: ['Bot', 'Name'],
    theme: { chat: { hostAvatar: { isEnabled: true, url: hostUrl }, guestAvatar: { isEnabled: true, url: guestUrl } } },
    groups: [
      {
        id: 'g',
        blocks: [
          text('hi', 'Hello'),
          input('name', 'text input', { variableId: varId('Name') }),
          setVariable('set', 'Bot', '"🤖"'),
          text('bye', 'Bye'),
          input('again', 'text input'),
        ],
      },
    ],
  })

describe('dynamicTheme', () => {
  it('sends avatars taken from variables on every step, as they stand then', async () => {
    const chat = new Conversation(avatarFlow('{{Bot}}', '{{Name}}'))
    const started = await chat.start({ prefilledVariables: { Bot: 'https://example.com/bot.png' } })
    expect(started.response.dynamicTheme).toEqual({ hostAvatarUrl: 'https://example.com/bot.png' })
    const next = await chat.answer('https://example.com/ada.png')
    expect(next.response.dynamicTheme).toEqual({ hostAvatarUrl: '🤖', guestAvatarUrl: 'https://example.com/ada.png' })
  })

  it('is not sent for fixed avatars, disabled ones, or before the variable has a value', async () => {
    const fixed = new Conversation(avatarFlow('https://example.com/bot.png'))
    expect((await fixed.start()).response.dynamicTheme).toBeUndefined()
    const unset = new Conversation(avatarFlow('{{Bot}}'))
    expect((await unset.start()).response.dynamicTheme).toEqual({})
    const disabled = new Conversation(
      buildFlow({
        variables: ['Bot'],
        theme: { chat: { hostAvatar: { isEnabled: false, url: '{{Bot}}' } } },
        groups: [{ id: 'g', blocks: [text('t', 'Hi')] }],
      }),
    )
    expect((await disabled.start({ prefilledVariables: { Bot: 'x' } })).response.dynamicTheme).toBeUndefined()
  })

  it('leaves out a value too long to be an address', async () => {
    const chat = new Conversation(avatarFlow('{{Bot}}'))
    expect((await chat.start({ prefilledVariables: { Bot: `https://example.com/${'a'.repeat(5000)}` } })).response.dynamicTheme).toEqual({})
  })
})
