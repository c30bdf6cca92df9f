import { batch, signal } from '@preact/signals-core'
import { chatStepResultSchema } from '../../../protocol/chat'
import { type Agent, type HandoffEvent, MAX_HANDOFF_MESSAGE_LENGTH, MAX_POLL_SECONDS, type TypingEvent } from '../../../protocol/handoff'
import { RETRY_POLICY } from '../../../protocol/time-limits'
import type { Words } from '../../i18n/strings'
import {
  type EventSourceConstructor,
  leaveHandoff,
  pollEvents,
  sendHandoffMessage,
  sendTyping,
  streamEvents,
} from '../../transport/handoff-feed'
import { backoffDelay, isTransportError, newIdempotencyKey, TransportError } from '../../transport/index'
import { describeFailure, isAborted } from '../events/failures'
import { type AgentEntry, type Entry, type GuestEntry, guestEntry } from '../state/entries'
import type { LiveHandoff } from '../state/live-handoff'
import { actionPayload } from './action-payload'
import type { ActionContext, ActionOutcome, ActionRunner } from './runners'

/**
 * The `handoff` action: the flow handed the conversation to a person of the owner's team. This
 * chunk follows the handoff's events (its own chunk, with the event stream: loaded when a step
 * brings the action, or earlier when the published flow has a handoff block), shows the
 * person's lines and the visitor's as they come, sends what the visitor types, and hands back the
 * step the flow produced once the conversation came back to it (`continued`), played like a
 * continueChat answer. Each event is shown once, by its `seq`, whatever the connection does; a
 * reload of a remembered conversation goes on after the last one it showed.
 */

/** Failed stream attempts (never opened) after which the long poll takes over for this handoff. */
export const STREAM_ATTEMPTS = 3
/** At most one "typing" to the person per this many ms while the visitor types. */
export const TYPING_EVERY_MS = 3_000
/** The person's "typing…" goes away by itself after this long without news (a lost "stopped"). */
export const AGENT_TYPING_MS = 8_000

const RECONNECTING: Words = { text: 'Connection lost. Reconnecting…', id: 'handoffReconnecting' }

export const followHandoff: ActionRunner = async (action, context) => {
  const handoffId = actionPayload(action, 'handoff')?.handoffId
  if (!handoffId) throw new TransportError('invalid-response', 'The flow service handed the chat to a person without naming the handoff')
  const follower = createFollower(handoffId, context)
  context.present(follower.live)
  try {
    return await follower.follow()
  } finally {
    follower.stop()
  }
}

function createFollower(handoffId: string, context: ActionContext) {
  const { client, sessionId, emit, sleep, signal: cancel } = context
  const endpoint = client.chat
  const status = signal<LiveHandoff['status']['value']>('connecting')
  const agent = signal<Agent | null>(null)
  const agentTyping = signal(false)
  const trouble = signal<Words | null>(null)
  const leaving = signal(false)
  const draft = signal('')
  /** The last event applied, in the order the service numbered them. */
  let last = 0
  /** Events past `last` already shown: the visitor's own messages, confirmed by their POST. */
  const shown = new Set<number>()
  /** The visitor's messages the service has not confirmed yet, oldest first. */
  const pending: GuestEntry[] = []
  let typingTimer: ReturnType<typeof setTimeout> | undefined
  let typingSentAt = 0
  let typingSent = false

  // What this page (or the one before a reload) already showed of this handoff.
  for (let index = 0; index < context.transcript.count.peek(); index++) {
    const entry = context.transcript.at(index)
    if (entry?.kind === 'agent' && entry.handoffId === handoffId) last = Math.max(last, entry.seq)
    if (entry?.kind !== 'guest' || entry.live?.handoffId !== handoffId) continue
    if (entry.live.seq !== undefined) last = Math.max(last, entry.live.seq)
    else if (entry.status.peek() !== 'rejected') pending.push(entry)
  }

  /** Shows a line of the live part, saved for a reload when the flow remembers users. */
  const show = (entry: Entry) => {
    context.transcript.append(entry)
    context.keep()
  }

  const confirm = (entry: GuestEntry, seq: number) => {
    const index = pending.indexOf(entry)
    if (index >= 0) pending.splice(index, 1)
    if (seq > last) shown.add(seq)
    if (entry.live) entry.live = { ...entry.live, seq }
    batch(() => {
      entry.status.value = 'sent'
      entry.error.value = null
    })
    context.keep()
  }

  const deliver = (entry: GuestEntry) => {
    const { live } = entry
    if (!live) return
    batch(() => {
      entry.status.value = 'sending'
      entry.error.value = null
    })
    sendHandoffMessage(endpoint, sessionId, entry.text.peek(), live.key, cancel, sleep).then(
      (stored) => confirm(entry, stored.seq),
      (error: unknown) => {
        if (isAborted(error, cancel)) return
        const failure = describeFailure(error)
        const retryable = isTransportError(error) && error.retryable
        emit('flowchat:error', { ...failure.detail, code: 'handoff-message-not-sent' })
        batch(() => {
          entry.status.value = retryable ? 'failed' : 'rejected'
          entry.error.value = failure.words
        })
        if (!retryable && pending.includes(entry)) pending.splice(pending.indexOf(entry), 1)
      },
    )
  }

  const setAgentTyping = (on: boolean) => {
    clearTimeout(typingTimer)
    agentTyping.value = on
    if (on) typingTimer = setTimeout(() => (agentTyping.value = false), AGENT_TYPING_MS)
  }

  /** Applies one stored event; the flow's next step when it is the last. */
  function apply(event: HandoffEvent): ActionOutcome | undefined {
    if (event.seq <= last) return undefined
    last = event.seq
    if (shown.delete(event.seq)) return undefined
    if (event.type === 'continued') {
      const step = chatStepResultSchema.safeParse(event.step)
      if (!step.success) throw new TransportError('invalid-response', 'The flow service sent a step this widget cannot read')
      return { step: step.data }
    }
    if (event.type === 'status') {
      batch(() => {
        status.value = event.status
        if (event.agent) agent.value = event.agent
      })
      return undefined
    }
    if (event.author === 'visitor') {
      // The visitor's own message, as the service stored it: confirms the one on its way, or (sent
      // from another tab, or before a reload) shows it.
      const mine = pending.find((entry) => entry.text.peek() === event.text)
      if (mine) confirm(mine, event.seq)
      else {
        const entry = liveGuest(event.text, { handoffId, key: '', seq: event.seq })
        entry.status.value = 'sent'
        show(entry)
      }
      return undefined
    }
    if (event.author === 'agent') {
      setAgentTyping(false)
      if (event.agent) agent.value = event.agent
    }
    const entry: AgentEntry = {
      kind: 'agent',
      key: `h${handoffId}:${event.seq}`,
      handoffId,
      seq: event.seq,
      author: event.author,
      text: event.text,
      agent: event.author === 'agent' ? (event.agent ?? agent.peek() ?? undefined) : undefined,
      at: Date.parse(event.at) || Date.now(),
    }
    show(entry)
    return undefined
  }

  const applyAll = (events: readonly HandoffEvent[]) => {
    for (const event of events) {
      const outcome = apply(event)
      if (outcome) return outcome
    }
    return undefined
  }

  const onTyping = (event: TypingEvent) => {
    if (event.author !== 'agent') return
    if (event.agent) agent.value = event.agent
    setAgentTyping(event.typing)
  }

  /**
   * Until the conversation comes back to the flow: a poll that answers at once (where the handoff
   * stands and what was missed), then the stream; where streams never open, long polls.
   */
  async function follow(): Promise<ActionOutcome> {
    for (const entry of pending) if (entry.status.peek() === 'sending') deliver(entry)
    const Source = (globalThis as { EventSource?: EventSourceConstructor }).EventSource
    let streaming = typeof Source === 'function'
    let silent = 0
    let failures = 0
    for (;;) {
      try {
        const answer = await pollEvents(endpoint, sessionId, last, cancel, streaming ? 0 : MAX_POLL_SECONDS)
        if (failures > 0) trouble.value = null
        failures = 0
        batch(() => {
          status.value = answer.status
          if (answer.agent) agent.value = answer.agent
        })
        const outcome = applyAll(answer.events)
        if (outcome) return outcome
        if (!streaming) continue
        let ended: ActionOutcome | undefined
        const stream = await streamEvents(
          endpoint,
          sessionId,
          last,
          {
            event: (event) => {
              ended = apply(event)
              return ended !== undefined
            },
            typing: onTyping,
          },
          cancel,
          Source!,
        )
        if (ended) return ended
        silent = stream.opened ? 0 : silent + 1
        if (silent >= STREAM_ATTEMPTS) {
          streaming = false
          emit('flowchat:log', {
            status: 'warning',
            description: `The live conversation's event stream did not open ${STREAM_ATTEMPTS} times: following it by long polling instead`,
            source: 'widget',
            code: 'handoff-interrupted',
          })
        } else if (!stream.opened) await sleep(backoffDelay(silent, RETRY_POLICY), cancel)
      } catch (error) {
        if (isAborted(error, cancel) || !isTransportError(error) || !error.retryable) throw error
        if (failures === 0) {
          // Said once per outage, to the visitor calmly and to the page; the chat keeps trying.
          trouble.value = RECONNECTING
          const { detail } = describeFailure(error)
          emit('flowchat:error', {
            ...detail,
            code: 'handoff-interrupted',
            message: `The live conversation's connection broke: ${detail.message}`,
          })
        }
        await sleep(backoffDelay(failures++, RETRY_POLICY, error.retryAfterMs), cancel)
      }
    }
  }

  const liveGuest = (text: string, live: GuestEntry['live']): GuestEntry => ({
    ...guestEntry(text, undefined),
    key: `h${live!.key || live!.seq}`,
    live,
  })

  const live: LiveHandoff = {
    status,
    agent,
    agentTyping,
    trouble,
    leaving,
    draft,
    send(text) {
      const trimmed = text.trim()
      if (!trimmed || trimmed.length > MAX_HANDOFF_MESSAGE_LENGTH || leaving.peek() || cancel.aborted) return false
      const entry = liveGuest(trimmed, { handoffId, key: newIdempotencyKey() })
      pending.push(entry)
      draft.value = ''
      typingSent = false
      show(entry)
      deliver(entry)
      return true
    },
    resend(entry) {
      if (entry.live?.handoffId === handoffId && entry.status.peek() === 'failed') deliver(entry)
    },
    typed() {
      const typing = draft.peek().trim() !== ''
      const now = Date.now()
      // "Typing" at most every few seconds while the visitor types; "stopped" once, when the field is emptied.
      if (typing ? now - typingSentAt < TYPING_EVERY_MS : !typingSent) return
      typingSentAt = typing ? now : 0
      typingSent = typing
      sendTyping(endpoint, sessionId, typing, cancel).catch(() => {})
    },
    leave() {
      if (leaving.peek()) return
      leaving.value = true
      leaveHandoff(endpoint, sessionId, cancel, sleep).then(
        // The flow goes on with the `continued` event the service sends next.
        () => {},
        (error: unknown) => {
          if (isAborted(error, cancel)) return
          const failure = describeFailure(error)
          emit('flowchat:error', {
            ...failure.detail,
            code: 'handoff-interrupted',
            message: `Leaving the conversation failed: ${failure.detail.message}`,
          })
          batch(() => {
            leaving.value = false
            trouble.value = failure.words
          })
        },
      )
    },
  }

  return {
    live,
    follow,
    stop() {
      clearTimeout(typingTimer)
      agentTyping.value = false
    },
  }
}
