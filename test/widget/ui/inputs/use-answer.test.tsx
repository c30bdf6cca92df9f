import { act, cleanup, fireEvent, screen } from '@testing-library/preact'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChatStepResult } from '../../../../src/protocol/index'
import { TransportError } from '../../../../src/widget/transport/index'
import { settle, startResponse, text, textInput } from '../../chat/fake-client'
import { renderApp } from '../render-app'
import { typeAndEnter } from './with-input'

afterEach(cleanup)

/** A chat waiting for a text answer whose reply the test releases. */
async function answering() {
  let reply: (step: ChatStepResult) => void = () => {}
  const setup = renderApp({
    start: startResponse({ messages: [text('m1', 'Your name?')], input: textInput('in1') }),
    replies: [new Promise<ChatStepResult>((resolve) => (reply = resolve))],
  })
  await act(async () => {
    setup.conversation.start()
    await settle()
  })
  const transcript = screen.getByRole('region', { name: 'Chat' })
  return {
    ...setup,
    transcript,
    reply: (step: ChatStepResult) =>
      act(async () => {
        reply(step)
        await settle()
      }),
  }
}

describe('focus between an answer and the next input', () => {
  it('waits on the transcript, never on the page, and moves to the next input when it appears', async () => {
    const { transcript, reply } = await answering()
    await typeAndEnter(screen.getByRole('textbox'), 'Ada')
    // The answered input is gone: focus is on the transcript, inside the chat.
    expect(screen.queryByRole('textbox')).toBeNull()
    expect(document.activeElement).toBe(transcript)
    await reply({ messages: [text('m2', 'And your e-mail?')], input: textInput('in2') })
    expect(document.activeElement).toBe(screen.getByRole('textbox'))
  })

  it('is not taken back once the visitor has gone elsewhere on the page', async () => {
    const { reply } = await answering()
    await typeAndEnter(screen.getByRole('textbox'), 'Ada')
    const elsewhere = document.createElement('button')
    document.body.append(elsewhere)
    elsewhere.focus()
    await reply({ messages: [text('m2', 'And your e-mail?')], input: textInput('in2') })
    expect(document.activeElement).toBe(elsewhere)
    elsewhere.remove()
  })

  it('stays in the chat when the Retry button it was on goes away', async () => {
    const setup = renderApp({
      start: startResponse({ input: textInput('in1') }),
      replies: [new TransportError('network', 'offline'), { messages: [text('m2', 'ok')], input: textInput('in2') }],
    })
    await act(async () => {
      setup.conversation.start()
      await settle()
    })
    await typeAndEnter(screen.getByRole('textbox'), 'Ada')
    const retry = screen.getByRole('button', { name: 'Retry' })
    retry.focus()
    await act(async () => {
      fireEvent.click(retry)
      await settle()
    })
    expect(retry.isConnected).toBe(false)
    expect(document.activeElement).toBe(screen.getByRole('textbox'))
  })
})
