import { fireEvent, screen, waitFor, within } from '@testing-library/preact'
import { beforeEach, describe, expect, it } from 'vitest'
import { axeViolations, recordTones, renderConsole, useConsole } from '../helpers/console'

/**
 * The team's inbox in the console, against the team API on loopback: conversations arriving in
 * real time (shown, counted, announced, chimed unless muted), one read whole and answered, the
 * actions and their refusals, a dropped stream, and an agent token's console.
 */
const { server } = useConsole()
const audio = recordTones()
beforeEach(() => void (audio.tones.length = 0))

const TRANSCRIPT = [
  { author: 'flow' as const, text: 'Hello! What is your order number?' },
  { author: 'visitor' as const, text: 'A-1234' },
  { author: 'flow' as const, text: 'Let me find someone for you.' },
]
const VARIABLES = [
  { id: 'v-order', name: 'Order', value: 'A-1234' },
  { id: 'v-refund', name: 'Refund', value: null },
]

const inbox = async () => {
  fireEvent.click(await screen.findByRole('button', { name: /^Inbox/ }))
  await screen.findByRole('heading', { name: 'Inbox' })
  await screen.findByText('Up to date')
}
const log = () => screen.getByRole('log')
const entry = (name: RegExp) => screen.findByRole('button', { name })
/** The owner's console with a conversation of the Support flow handed over, opened and claimed. */
const answering = async () => {
  const handoff = server().handOver('Support')
  renderConsole(server().secret.value)
  await inbox()
  fireEvent.click(await entry(/Support/))
  fireEvent.click(await screen.findByRole('button', { name: 'Claim the conversation' }))
  await screen.findByLabelText('Reply to the visitor')
  return handoff
}

describe('the inbox', () => {
  it('shows a conversation handed over while it is open, marked new, counted, announced once and chimed', async () => {
    renderConsole(server().secret.value)
    await inbox()
    await screen.findByText(/No conversations yet/)
    // The browser lets the page play sound once the person pressed a key.
    fireEvent.keyDown(document.body, { key: 'Tab' })

    server().handOver('Support')
    const item = await entry(/Support/)
    expect(item.textContent).toContain('New')
    expect(item.textContent).toContain('Waiting')
    expect(screen.getByRole('heading', { name: 'Waiting (1)' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Inbox (1 waiting)' })).toBeTruthy()
    await waitFor(() => expect(document.title).toBe('(1) Flow console'))
    expect(log().textContent).toBe('A new conversation is waiting: Support.')
    expect(audio.tones).toEqual([659.25, 880])

    // Muted, a new one is shown and announced, silently; the choice is remembered.
    const sound = screen.getByRole('button', { name: 'Sound for new conversations' })
    expect(sound.getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(sound)
    expect(sound.getAttribute('aria-pressed')).toBe('false')
    expect(localStorage.getItem('flow-console:inbox-muted')).toBe('true')
    server().handOver('Sales')
    await entry(/Sales/)
    expect(audio.tones).toHaveLength(2)
    expect(
      within(log())
        .getAllByText(/A new conversation is waiting/)
        .map((line) => line.textContent),
    ).toEqual(['A new conversation is waiting: Support.', 'A new conversation is waiting: Sales.'])
    await waitFor(() => expect(document.title).toBe('(2) Flow console'))
  })

  it('counts waiting conversations on the Flows view too, and lists those already waiting when it opens', async () => {
    server().handOver('Support')
    renderConsole(server().secret.value)
    await screen.findByRole('button', { name: 'Inbox (1 waiting)' })
    server().handOver('Billing')
    await screen.findByRole('button', { name: 'Inbox (2 waiting)' })
    await inbox()
    // The one already waiting is not "new"; the one that came while the console was open is.
    expect((await entry(/Support/)).textContent).not.toContain('New')
    expect((await entry(/Billing/)).textContent).toContain('New')
  })

  it('opens a conversation whole, claims it, answers with Enter, and shows the visitor typing and answering once each', async () => {
    const handoff = server().handOver('Support', { transcript: TRANSCRIPT, variables: VARIABLES })
    renderConsole(server().secret.value)
    await inbox()
    const item = await entry(/Support/)
    fireEvent.click(item)
    const title = await screen.findByRole('heading', { level: 2, name: 'Support' })
    await waitFor(() => expect(document.activeElement).toBe(title))

    const transcript = screen.getByRole('region', { name: 'Transcript' })
    expect(
      within(transcript)
        .getAllByRole('listitem')
        .map((line) => line.textContent),
    ).toEqual(['Flow Hello! What is your order number?', 'Visitor A-1234', 'Flow Let me find someone for you.', 'Handed to your team.'])
    const variables = screen.getByRole('complementary', { name: 'Variables' })
    expect(within(variables).getByText('Order', { selector: 'dt' }).nextElementSibling?.textContent).toBe('A-1234')
    expect(within(variables).getByText('not set')).toBeTruthy()
    // Nothing to answer before claiming.
    expect(screen.queryByLabelText('Reply to the visitor')).toBeNull()

    fireEvent.click(screen.getByRole('button', { name: 'Claim the conversation' }))
    const box = (await screen.findByLabelText('Reply to the visitor')) as HTMLTextAreaElement
    expect(within(screen.getByRole('region', { name: 'Support' })).getByText(/^Live ·/).textContent).toMatch(
      /^Live · owner \(you\) · asked/,
    )
    await within(transcript).findByText('owner is answering.')

    fireEvent.input(box, { target: { value: 'Hi, I am looking at A-1234 now.' } })
    await waitFor(() => expect(server().requests.some((request) => request.path.endsWith('/typing'))).toBe(true))
    expect(server().requests.find((request) => request.path.endsWith('/typing'))?.body).toEqual({ typing: true })
    // Shift+Enter is a new line, Enter sends.
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true })
    expect(server().requests.some((request) => request.path.endsWith('/messages'))).toBe(false)
    fireEvent.keyDown(box, { key: 'Enter' })
    await within(transcript).findByText('Hi, I am looking at A-1234 now.')
    await waitFor(() => expect(box.value).toBe(''))
    const sent = server().requests.filter((request) => request.path.endsWith('/messages'))
    expect(sent).toHaveLength(1)
    expect(sent[0]?.idempotencyKey).toMatch(/^[0-9a-f]{32}$/)
    expect(sent[0]?.body).toEqual({ text: 'Hi, I am looking at A-1234 now.' })
    await waitFor(() => expect(server().requests.at(-1)?.body).toEqual({ typing: false }))

    server().visitorTyping(handoff.id, true)
    await within(transcript).findByText('The visitor is typing…')
    server().visitorSays(handoff.id, 'Thanks! It never arrived.')
    await within(transcript).findByText('Thanks! It never arrived.')
    expect(within(transcript).queryByText('The visitor is typing…')).toBeNull()
    expect(within(transcript).getAllByText('Thanks! It never arrived.')).toHaveLength(1)
    expect(within(log()).getAllByText('Visitor: Thanks! It never arrived.')).toHaveLength(1)
    // The agent's own line is not read back to them.
    expect(log().textContent).not.toContain('looking at A-1234')
    // The list shows the last line (the entry moved to the live ones).
    expect((await entry(/Support/)).textContent).toContain('Thanks! It never arrived.')
    expect(await axeViolations()).toEqual([])
  })

  it('keeps a message whose answer was lost in the box, and sends it again under the same key: stored and shown once', async () => {
    const handoff = await answering()
    const box = screen.getByLabelText('Reply to the visitor') as HTMLTextAreaElement
    fireEvent.input(box, { target: { value: 'Your refund is on its way.' } })
    server().loseNextAnswer('/messages')
    fireEvent.keyDown(box, { key: 'Enter' })
    expect((await screen.findByRole('alert')).textContent).toMatch(/could not be reached/)
    expect(box.value).toBe('Your refund is on its way.')

    fireEvent.keyDown(box, { key: 'Enter' })
    await waitFor(() => expect(box.value).toBe(''))
    const sent = server().requests.filter((request) => request.path.endsWith('/messages'))
    expect(sent).toHaveLength(2)
    expect(sent[1]?.idempotencyKey).toBe(sent[0]?.idempotencyKey)
    expect(
      server()
        .conversation(handoff.id)
        .events.filter((event) => event.type === 'message'),
    ).toHaveLength(1)
    const transcript = screen.getByRole('region', { name: 'Transcript' })
    expect(within(transcript).getAllByText('Your refund is on its way.')).toHaveLength(1)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('says so when the visitor leaves the conversation being answered, and takes the reply box away', async () => {
    const handoff = await answering()
    server().visitorLeaves(handoff.id)
    await within(screen.getByRole('region', { name: 'Transcript' })).findByText('The visitor left.')
    expect(within(log()).getAllByText('The visitor left.')).toHaveLength(1)
    expect(screen.queryByLabelText('Reply to the visitor')).toBeNull()
    expect(screen.getByRole('heading', { name: 'Ended (1)' })).toBeTruthy()
  })

  it('says plainly who claimed a conversation first, and shows it as it now stands', async () => {
    const handoff = server().handOver('Support')
    renderConsole(server().secret.value)
    await inbox()
    fireEvent.click(await entry(/Support/))
    const claim = await screen.findByRole('button', { name: 'Claim the conversation' })
    server().claimAs(server().agents[1]!, handoff.id)
    fireEvent.click(claim)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('This conversation was claimed by Bea before you. The conversation is shown as it stands now.')
    await screen.findByText('Bea is answering this conversation.')
    expect(screen.queryByRole('button', { name: 'Claim the conversation' })).toBeNull()
    expect(screen.queryByLabelText('Reply to the visitor')).toBeNull()
  })

  it('sets a variable, hands the conversation to another agent, and ends one after confirming', async () => {
    const first = server().handOver('Support', { variables: VARIABLES })
    const second = server().handOver('Billing', { variables: VARIABLES })
    renderConsole(server().secret.value)
    await inbox()

    fireEvent.click(await entry(/Support/))
    fireEvent.click(await screen.findByRole('button', { name: 'Claim the conversation' }))
    fireEvent.change(await screen.findByLabelText('Variable to set'), { target: { value: 'Refund' } })
    fireEvent.input(screen.getByLabelText('Value'), { target: { value: 'yes' } })
    fireEvent.click(screen.getByRole('button', { name: 'Set the variable' }))
    await waitFor(() => expect(server().conversation(first.id).variables[1]?.value).toBe('yes'))
    const variables = screen.getByRole('complementary', { name: 'Variables' })
    await waitFor(() => expect(within(variables).getByText('Refund', { selector: 'dt' }).nextElementSibling?.textContent).toBe('yes'))

    fireEvent.change(screen.getByLabelText('Hand the conversation to'), { target: { value: server().agents[1]!.id } })
    fireEvent.click(screen.getByRole('button', { name: 'Transfer' }))
    await screen.findByText('Bea is answering this conversation.')
    expect(server().conversation(first.id).summary.agentTokenId).toBe(server().agents[1]!.id)

    fireEvent.click(screen.getByRole('button', { name: 'Close the conversation' }))
    await waitFor(() => expect(document.activeElement?.getAttribute('data-handoff-id')).toBe(first.id))
    fireEvent.click(await entry(/Billing/))
    fireEvent.click(await screen.findByRole('button', { name: 'Claim the conversation' }))
    fireEvent.click(await screen.findByRole('button', { name: 'End the conversation' }))
    // Focus is on "Cancel": a stray Enter ends nothing.
    expect(document.activeElement?.textContent).toBe('Cancel')
    fireEvent.click(screen.getByRole('button', { name: 'End it' }))
    await waitFor(() => expect(server().conversation(second.id).summary.status).toBe('ended'))
    await screen.findByText('The conversation ended.')
    expect(screen.queryByLabelText('Reply to the visitor')).toBeNull()
    expect(screen.getByRole('heading', { name: 'Ended (1)' })).toBeTruthy()
  })

  it('resumes after a dropped stream from the last event it holds: nothing lost, nothing twice', async () => {
    const handoff = await answering()
    const transcript = screen.getByRole('region', { name: 'Transcript' })
    server().visitorSays(handoff.id, 'First')
    await within(transcript).findByText('First')

    const lastId = () => {
      const streams = server().requests.filter((request) => request.path === '/v1/handoffs/events')
      return { count: streams.length, lastEventId: streams.at(-1)?.lastEventId }
    }
    expect(lastId()).toEqual({ count: 1, lastEventId: undefined })
    server().dropStreams()
    server().visitorSays(handoff.id, 'Second, while the console was away')
    server().handOver('Billing')
    await within(transcript).findByText('Second, while the console was away', {}, { timeout: 5_000 })
    await entry(/Billing/)
    const reconnect = lastId()
    expect(reconnect.count).toBe(2)
    expect(Number(reconnect.lastEventId)).toBeGreaterThan(0)
    expect(
      within(transcript)
        .getAllByText(/First|Second/)
        .map((line) => line.textContent),
    ).toEqual(['First', 'Second, while the console was away'])
    expect(
      within(log())
        .getAllByText(/^Visitor:/)
        .map((line) => line.textContent),
    ).toEqual(['Visitor: First', 'Visitor: Second, while the console was away'])
  })
})

describe('an agent token', () => {
  it('loads older conversations page by page with "Load more", each once, and keeps them when the list is read again', async () => {
    server().pageSize = 2
    const handed = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'].map((name) => server().handOver(name))
    renderConsole(server().secret.value)
    await inbox()
    await entry(/Echo/)
    expect(screen.queryByRole('button', { name: /Charlie/ })).toBeNull()

    fireEvent.click(screen.getByRole('button', { name: 'Load more conversations' }))
    await entry(/Charlie/)
    // Focus goes to the first conversation added.
    await waitFor(() => expect(document.activeElement?.getAttribute('data-handoff-id')).toBe(handed[2]!.id))
    fireEvent.click(screen.getByRole('button', { name: 'Load more conversations' }))
    await entry(/Alpha/)
    expect(screen.queryByRole('button', { name: 'Load more conversations' })).toBeNull()
    const listed = () => [...document.querySelectorAll('[data-handoff-id]')].map((item) => item.getAttribute('data-handoff-id')).sort()
    expect(listed()).toEqual(handed.map((item) => item.id).sort())

    // The stream drops and the first page is read again: the older pages stay, none twice.
    server().dropStreams()
    // The console reconnects after a short, random pause, and reads the first page again.
    await waitFor(() => expect(server().requests.filter((request) => request.path.startsWith('/v1/handoffs?')).length).toBe(4), {
      timeout: 5_000,
    })
    await waitFor(() => expect(listed()).toEqual(handed.map((item) => item.id).sort()))
    expect(screen.queryByRole('button', { name: 'Load more conversations' })).toBeNull()
  })

  it('signs in to the inbox only: no flows, no tokens, answers as its own name and hands a conversation to another agent', async () => {
    const [ada] = server().agents
    const handoff = server().handOver('Support')
    renderConsole(ada!.value)
    await screen.findByRole('heading', { level: 1, name: 'Team inbox' })
    await screen.findByText('Up to date')
    expect(screen.queryByRole('navigation', { name: 'Views' })).toBeNull()
    expect(screen.queryByRole('heading', { name: 'Flows' })).toBeNull()
    expect(screen.queryByRole('heading', { name: 'Tokens' })).toBeNull()
    expect(server().requests.some((request) => /^\/v1\/(flows|tokens)/.test(request.path))).toBe(false)

    fireEvent.click(await entry(/Support/))
    fireEvent.click(await screen.findByRole('button', { name: 'Claim the conversation' }))
    await waitFor(() =>
      expect(within(screen.getByRole('region', { name: 'Support' })).getByText(/^Live ·/).textContent).toMatch(
        /^Live · Ada \(you\) · asked/,
      ),
    )
    const box = await screen.findByLabelText('Reply to the visitor')
    fireEvent.input(box, { target: { value: 'Hello, Ada here.' } })
    fireEvent.keyDown(box, { key: 'Enter' })
    await within(screen.getByRole('region', { name: 'Transcript' })).findByText('Hello, Ada here.')
    expect(server().conversation(handoff.id).events.at(-1)).toMatchObject({ author: 'agent', agent: { name: 'Ada' } })
    expect(await axeViolations()).toEqual([])

    // Handing it on: the people come from the agents' list an agent token may read, not from the tokens.
    const to = screen.getByLabelText('Hand the conversation to') as HTMLSelectElement
    const others = server().agents.filter((agent) => agent !== ada)
    expect([...to.options].map((option) => option.textContent)).toEqual(others.map((agent) => agent.label))
    fireEvent.change(to, { target: { value: server().agents[1]!.id } })
    fireEvent.click(screen.getByRole('button', { name: 'Transfer' }))
    await screen.findByText('Bea is answering this conversation.')
    expect(server().conversation(handoff.id).summary.agentTokenId).toBe(server().agents[1]!.id)
    expect(server().requests.some((request) => /^\/v1\/(flows|tokens)/.test(request.path))).toBe(false)
  })
})
