import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact'
import axe from 'axe-core'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { EventSource, startHandoffService } from '../chat/actions/handoff-service'
import { settle, startResponse, text, textInput } from '../chat/fake-client'
import { renderApp } from './render-app'

const ADA = { name: 'Ada Lovelace', avatarUrl: 'https://cdn.example/ada.png' }
const start = () =>
  startResponse({
    messages: [text('wait', 'Let me find someone for you.')],
    clientSideActions: [{ type: 'handoff', handoff: { handoffId: 'h1' }, lastBubbleBlockId: 'wait', expectsDedicatedReply: true }],
  })

let service: Awaited<ReturnType<typeof startHandoffService>>

beforeAll(() => Promise.all([import('../../../src/widget/chat/actions/handoff'), import('../../../src/widget/ui/handoff-view')]), 60_000)
beforeEach(async () => {
  vi.stubGlobal('EventSource', EventSource)
  service = await startHandoffService()
})
afterEach(async () => {
  cleanup()
  vi.unstubAllGlobals()
  await service.close()
})

async function open() {
  const setup = renderApp({ start: start(), chat: service.endpoint })
  await act(async () => {
    setup.conversation.start()
    await settle()
  })
  await waitFor(() => expect(service.streams).toBe(1), { timeout: 5_000 })
  return setup
}

const transcript = (container: Element) => container.querySelector<HTMLElement>('[part~="transcript"]')!

/** axe-core's rules that a simulated DOM can judge (no layout, so no colours or sizes). */
async function violations(container: Element) {
  const result = await axe.run(container, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } })
  // It did judge the controls: their names and the field's label.
  expect(result.passes.map((rule) => rule.id)).toEqual(expect.arrayContaining(['button-name', 'label']))
  return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`)
}

describe('the handoff view', () => {
  it('while waiting: the flow’s message, a calm status, a field to write in and a way to leave the queue', async () => {
    const { view } = await open()
    expect(within(transcript(view.container)).getByText('Let me find someone for you.')).toBeTruthy()
    await waitFor(() =>
      expect(view.container.querySelector('[role="status"][part~="handoff-status"]')?.textContent).toBe('Waiting for a person…'),
    )
    expect(screen.getByRole('button', { name: 'Leave the queue' })).toBeTruthy()
    expect(screen.getByRole('textbox', { name: 'Write a message…' })).toBeTruthy()
    expect(await violations(view.container)).toEqual([])
  })

  it("shows the person's messages with their name and avatar, apart from the flow's, as sanitised Markdown", async () => {
    const { view } = await open()
    service.claim(ADA)
    service.say(ADA, 'Hi! Here is **the link**: [docs](https://example.com/docs) <img src=x onerror="alert(1)"> [bad](javascript:alert(1))')
    await waitFor(() => expect(view.container.querySelector('[part~="agent-bubble"] strong')?.textContent).toBe('the link'), {
      timeout: 5_000,
    })
    const bubble = view.container.querySelector('[part~="agent-bubble"]')!
    expect(bubble.classList.contains('host')).toBe(false)
    expect(bubble.querySelector('[part~="agent-name"]')?.textContent).toBe('Ada Lovelace')
    expect(view.container.querySelector('img[part~="agent-avatar"]')?.getAttribute('src')).toBe('https://cdn.example/ada.png')
    expect(bubble.querySelector('a[href="https://example.com/docs"]')).toBeTruthy()
    expect(bubble.querySelector('[onerror], script, a[href^="javascript"]')).toBeNull()
    await waitFor(() =>
      expect(view.container.querySelector('[part~="handoff-status"]')?.textContent).toBe('You are chatting with Ada Lovelace.'),
    )
    expect(screen.getByRole('button', { name: 'End the conversation' })).toBeTruthy()
    expect(await violations(view.container)).toEqual([])
  })

  it('announces each of the person’s messages once, with their name', async () => {
    const { view } = await open()
    const heard: string[] = []
    const observer = new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) heard.push(node.textContent ?? '')
    })
    observer.observe(view.container.querySelector('[part~="live-region"]')!, { childList: true })
    service.claim(ADA)
    service.say(ADA, 'First')
    service.drop()
    service.say(ADA, 'Second')
    await waitFor(() => expect(heard).toEqual(['Ada Lovelace: First', 'Ada Lovelace: Second']), { timeout: 5_000 })
    await act(settle)
    expect(heard).toEqual(['Ada Lovelace: First', 'Ada Lovelace: Second'])
    observer.disconnect()
  })

  it('sends what the visitor types with Enter, shows it once, and says when the person is typing', async () => {
    const { view } = await open()
    service.claim(ADA)
    service.typingNow(ADA)
    await waitFor(() => expect(view.container.querySelector('[part~="agent-typing"]')?.textContent).toBe('Ada Lovelace is typing…'))
    const field = screen.getByRole('textbox', { name: 'Write a message…' }) as HTMLInputElement
    fireEvent.input(field, { target: { value: 'Where is my parcel?' } })
    fireEvent.keyDown(field, { key: 'Enter' })
    await waitFor(() => expect(service.events.some((event) => event.type === 'message' && event.text === 'Where is my parcel?')).toBe(true))
    await waitFor(() => expect(view.container.querySelector('[part~="guest-bubble"]')?.getAttribute('data-status')).toBe('sent'))
    expect(view.container.querySelectorAll('[part~="guest-bubble"]')).toHaveLength(1)
    expect(field.value).toBe('')
    expect(service.typing).toEqual([true])
  })

  it('leaves the queue and goes on with the flow, its input in place of the field', async () => {
    service.behaviour.afterLeave = { messages: [text('m2', 'Can we e-mail you instead?')], input: textInput('email') }
    const { conversation, view } = await open()
    const leave = screen.getByRole('button', { name: 'Leave the queue' })
    leave.focus()
    fireEvent.click(leave)
    // Still in the keyboard's hands while the service takes it.
    await waitFor(() => expect(leave.getAttribute('aria-disabled')).toBe('true'))
    await waitFor(() => expect(within(transcript(view.container)).getByText('Can we e-mail you instead?')).toBeTruthy(), { timeout: 5_000 })
    expect(conversation.input.value?.input.id).toBe('email')
    expect(screen.queryByRole('button', { name: 'Leave the queue' })).toBeNull()
    expect(screen.queryByRole('textbox', { name: 'Write a message…' })).toBeNull()
    // Focus went with the visitor to the flow's next question.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Type your answer…' })))
  })
})
