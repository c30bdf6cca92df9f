import { batch, computed, signal } from '@preact/signals'
import type { StreamState } from '../../protocol/follow-event-stream'
import type { HandoffAgent, HandoffDetail, HandoffEvent, HandoffStatus, HandoffSummary, InboxEvent } from '../../protocol/handoff'
import {
  claimHandoff,
  endHandoff,
  followInbox,
  getHandoff,
  listHandoffAgents,
  listHandoffs,
  sendHandoffMessage,
  sendHandoffTyping,
  setHandoffVariable,
  transferHandoff,
} from '../../protocol/handoffs-api'
import { ApiError, api, messageOf } from '../api'
import { announce } from '../session'
import { tokens } from '../workspace'
import { chime } from './chime'

/**
 * The team's inbox as the console shows it: the workspace's conversations handed to a person,
 * kept current by the inbox's event stream; the one opened, whole; what the visitor is typing.
 * State as signals, what a person does as the verbs below; the views read the signals.
 */
export const conversations = signal<HandoffSummary[] | null>(null)
export const openId = signal<string | null>(null)
/** The open conversation, whole (null while it loads). */
export const detail = signal<HandoffDetail | null>(null)
/** Conversations whose visitor is typing now. */
export const typingVisitors = signal<ReadonlySet<string>>(new Set())
/** Waiting conversations that came in while the inbox was open and have not been opened yet. */
export const fresh = signal<ReadonlySet<string>>(new Set())
export const streamState = signal<StreamState>('connecting')
export const inboxError = signal<string | null>(null)
/** The lines read out by the inbox's own live region (role=log): each new message once, in order. */
export const spoken = signal<ReadonlyArray<{ id: string; text: string }>>([])
/** The workspace's people a conversation can be handed to, read when one is opened. */
export const agents = signal<readonly HandoffAgent[]>([])
/** The token a claim named as this console's (an agent token cannot list tokens to find its own id). */
const claimedAs = signal<string | null>(null)
/** The token this console runs with, when known: a secret token's id from the tokens list, or the one a claim named. */
export const ownTokenId = computed(() => tokens.value?.find((item) => item.current)?.id ?? claimedAs.value)

export const waitingCount = computed(() => conversations.value?.filter((item) => item.status === 'waiting').length ?? 0)

const ORDER: Record<HandoffSummary['status'], number> = { waiting: 0, live: 1, ended: 2, unanswered: 2, left: 2 }
/** Waiting first, longest waiting on top (a queue); then live ones; then the rest, newest first. */
function sorted(items: HandoffSummary[]): HandoffSummary[] {
  return items.sort((a, b) => {
    const byStatus = ORDER[a.status] - ORDER[b.status]
    if (byStatus) return byStatus
    const at = (item: HandoffSummary) => item.endedAt ?? item.claimedAt ?? item.requestedAt
    return a.status === 'waiting' ? a.requestedAt.localeCompare(b.requestedAt) : at(b).localeCompare(at(a))
  })
}

const MAX_SPOKEN = 5
function speak(id: string, text: string) {
  spoken.value = [...spoken.value.slice(1 - MAX_SPOKEN), { id, text }]
}

/** Events merged by their number: none twice, in order. */
export function mergeEvents(held: readonly HandoffEvent[], incoming: readonly HandoffEvent[]): HandoffEvent[] {
  const bySeq = new Map(held.map((event) => [event.seq, event]))
  for (const event of incoming) bySeq.set(event.seq, event)
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq)
}

/** Events of the open conversation that came while it loaded: merged into what it answers. */
let early: HandoffEvent[] = []
/** Ids the list holds changes from the stream for since a list request went out: the list's older copy does not win. */
let touched: Set<string> | null = null

function upsert(summary: HandoffSummary) {
  touched?.add(summary.id)
  const list = conversations.value ?? []
  const before = list.find((item) => item.id === summary.id)
  conversations.value = sorted([...list.filter((item) => item.id !== summary.id), summary])
  if (summary.status === 'waiting' && before?.status !== 'waiting' && openId.value !== summary.id) {
    fresh.value = new Set(fresh.value).add(summary.id)
    speak(`new-${summary.id}-${summary.requestedAt}`, `A new conversation is waiting: ${summary.flowName}.`)
    chime()
  } else if (summary.status !== 'waiting' && fresh.value.has(summary.id)) {
    const next = new Set(fresh.value)
    next.delete(summary.id)
    fresh.value = next
  }
  const open = detail.value
  if (open && open.handoff.id === summary.id) detail.value = { ...open, handoff: summary }
}

function addEvent(handoffId: string, event: HandoffEvent) {
  if (event.type === 'message') {
    // A visitor's line ends their "typing…", in the list as in the open conversation.
    if (event.author === 'visitor') setTyping(handoffId, false)
    const list = conversations.value
    if (list?.some((item) => item.id === handoffId))
      conversations.value = list.map((item) => (item.id === handoffId ? { ...item, lastMessage: event.text } : item))
  }
  if (handoffId !== openId.value) return
  const open = detail.value
  if (!open) {
    early.push(event)
    return
  }
  if (open.events.some((held) => held.seq === event.seq)) return
  const last = open.events.at(-1)?.seq ?? 0
  detail.value = { ...open, events: mergeEvents(open.events, [event]) }
  if (event.type === 'message' && event.author !== 'agent') speak(`${handoffId}-${event.seq}`, `${speaker(event)}: ${event.text}`)
  // What the person did not do themselves is said too: the visitor left, no one answered in time.
  if (event.type === 'status' && (event.status === 'left' || event.status === 'unanswered'))
    speak(`${handoffId}-${event.seq}`, STATUS_LINES[event.status](undefined))
  // A gap (events this console never received): the conversation is read again.
  if (event.seq > last + 1) void load(handoffId)
}

/** A change of status as the transcript (and, for the visitor's doing, the live region) says it. */
export const STATUS_LINES: Record<HandoffStatus, (agent: string | undefined) => string> = {
  waiting: () => 'Waiting for a person.',
  live: (agent) => `${agent ?? 'A person'} is answering.`,
  ended: () => 'The conversation ended.',
  unanswered: () => 'No one answered in time.',
  left: () => 'The visitor left.',
}

/** Who said a line, as the transcript and the live region name them. */
export const speaker = (event: Extract<HandoffEvent, { type: 'message' }>) =>
  event.author === 'visitor' ? 'Visitor' : event.author === 'agent' ? (event.agent?.name ?? 'Agent') : 'Note'

const typingTimers = new Map<string, ReturnType<typeof setTimeout>>()
/** A typing notice that never says "stopped" (the visitor closed the tab) ends by itself. */
const TYPING_EXPIRES_MS = 8_000
function setTyping(handoffId: string, typing: boolean) {
  clearTimeout(typingTimers.get(handoffId))
  typingTimers.delete(handoffId)
  const next = new Set(typingVisitors.value)
  if (typing) {
    next.add(handoffId)
    typingTimers.set(
      handoffId,
      setTimeout(() => setTyping(handoffId, false), TYPING_EXPIRES_MS),
    )
  } else next.delete(handoffId)
  typingVisitors.value = next
}

export function applyInboxEvent(event: InboxEvent): void {
  batch(() => {
    if (event.type === 'handoff') upsert(event.handoff)
    else if (event.type === 'message') addEvent(event.handoffId, event.event)
    else setTyping(event.handoffId, event.typing)
  })
}

const EVERY_STATUS: HandoffStatus[] = ['waiting', 'live', 'ended', 'unanswered', 'left']
/** Where the next older page of the list starts; null when the list holds them all. */
export const nextCursor = signal<string | null>(null)
/** Older conversations the person asked for ("load more"): kept when the first page is read again. */
let pagedIn = new Set<string>()

/** The list, read again (when the stream opens, and after a break a replay may not cover). */
export async function reloadConversations(): Promise<void> {
  touched = new Set()
  try {
    const listed = await listHandoffs(api, { status: EVERY_STATUS })
    const mine = touched
    const held = new Map((conversations.value ?? []).map((item) => [item.id, item]))
    const fromPage = new Set(listed.handoffs.map((item) => item.id))
    const older = [...pagedIn].filter((id) => !fromPage.has(id) && !mine.has(id))
    batch(() => {
      conversations.value = sorted([
        ...listed.handoffs.filter((item) => !mine.has(item.id)),
        ...[...mine, ...older].flatMap((id) => held.get(id) ?? []),
      ])
      // Pages already loaded stay loaded: the cursor past them still holds.
      if (pagedIn.size === 0) nextCursor.value = listed.nextCursor ?? null
      inboxError.value = null
    })
  } catch (caught) {
    inboxError.value = messageOf(caught)
  } finally {
    touched = null
  }
}

/** The next older page of the list, added to what is held (none twice); answers the ids added. */
export async function loadMoreConversations(): Promise<string[]> {
  const cursor = nextCursor.value
  if (!cursor) return []
  try {
    const listed = await listHandoffs(api, { status: EVERY_STATUS, cursor })
    const held = new Set((conversations.value ?? []).map((item) => item.id))
    const added = listed.handoffs.filter((item) => !held.has(item.id))
    batch(() => {
      for (const item of added) pagedIn.add(item.id)
      conversations.value = sorted([...(conversations.value ?? []), ...added])
      nextCursor.value = listed.nextCursor ?? null
      inboxError.value = null
    })
    announce(added.length === 1 ? '1 more conversation.' : `${added.length} more conversations.`)
    return added.map((item) => item.id)
  } catch (caught) {
    inboxError.value = messageOf(caught)
    return []
  }
}

/** Starts following the inbox; the answer stops it. */
export function openInbox(): () => void {
  const follower = followInbox(api, {
    onEvent: applyInboxEvent,
    onOpen: () => {
      void reloadConversations()
      if (openId.value) void load(openId.value)
    },
    onState: (state) => (streamState.value = state),
    onGiveUp: (error) => (inboxError.value = messageOf(error)),
  })
  return () => {
    follower.close()
    for (const timer of typingTimers.values()) clearTimeout(timer)
    typingTimers.clear()
  }
}

async function load(handoffId: string) {
  try {
    const answer = await getHandoff(api, handoffId)
    if (openId.value !== handoffId) return
    const held = detail.value?.handoff.id === handoffId ? detail.value.events : []
    detail.value = { ...answer, events: mergeEvents(mergeEvents(held, answer.events), early) }
    early = []
    inboxError.value = null
  } catch (caught) {
    if (openId.value === handoffId) inboxError.value = messageOf(caught)
  }
}

/** Opens a conversation: the whole of it, then what the stream adds. */
export async function openConversation(handoffId: string): Promise<void> {
  batch(() => {
    openId.value = handoffId
    detail.value = null
    early = []
    if (fresh.value.has(handoffId)) {
      const next = new Set(fresh.value)
      next.delete(handoffId)
      fresh.value = next
    }
  })
  await Promise.all([load(handoffId), loadAgents()])
}

/** A list that could not be read keeps the one held: transferring is not worth an error over the conversation. */
async function loadAgents() {
  try {
    agents.value = await listHandoffAgents(api)
  } catch {
    // The transfer control shows the people known so far.
  }
}

export function closeConversation(): void {
  batch(() => {
    openId.value = null
    detail.value = null
  })
}

/** What a person does with the open conversation: the error is shown in the panel, plainly. */
export const actionError = signal<string | null>(null)

async function act<T>(work: (handoffId: string) => Promise<T>): Promise<T | undefined> {
  const handoffId = openId.value
  if (!handoffId) return undefined
  try {
    const answer = await work(handoffId)
    actionError.value = null
    return answer
  } catch (caught) {
    actionError.value = describeRefusal(caught)
    return undefined
  }
}

/** A refusal in the words a person needs: who has the conversation now, or what went wrong. */
function describeRefusal(caught: unknown): string {
  if (caught instanceof ApiError && caught.status === 409) {
    void reloadOpen()
    return `${caught.message} The conversation is shown as it stands now.`
  }
  return messageOf(caught)
}

const reloadOpen = async () => {
  if (openId.value) await load(openId.value)
}

export async function claim(): Promise<boolean> {
  const claimed = await act((id) => claimHandoff(api, id))
  if (!claimed) return false
  batch(() => {
    if (claimed.agentTokenId) claimedAs.value = claimed.agentTokenId
    upsert(claimed)
  })
  announce('You are now answering this conversation.')
  return true
}

/** Sends a line; the text comes back to the caller when it was not sent, so nothing typed is lost. */
export async function reply(text: string, idempotencyKey: string): Promise<boolean> {
  const stored = await act((id) => sendHandoffMessage(api, id, text, idempotencyKey))
  if (!stored || !openId.value) return false
  addEvent(openId.value, stored)
  return true
}

/** Tells the visitor whether the person is typing: a notice lost on the way matters to no one. */
export function typing(value: boolean): void {
  if (openId.value) sendHandoffTyping(api, openId.value, value).catch(() => undefined)
}

export async function setVariable(name: string, value: string): Promise<boolean> {
  const done =
    (await act(async (id) => {
      await setHandoffVariable(api, id, name, value)
      return true
    })) ?? false
  if (done) {
    const open = detail.value
    if (open)
      detail.value = { ...open, variables: open.variables.map((variable) => (variable.name === name ? { ...variable, value } : variable)) }
    announce(`${name} is set.`)
  }
  return done
}

export async function transfer(agentTokenId: string, agentName: string): Promise<boolean> {
  const moved = await act((id) => transferHandoff(api, id, agentTokenId))
  if (!moved) return false
  upsert(moved)
  announce(`The conversation is handed to ${agentName}.`)
  return true
}

export async function end(): Promise<boolean> {
  const ended = await act((id) => endHandoff(api, id))
  if (!ended) return false
  upsert(ended)
  announce('The conversation is ended: the flow goes on for the visitor.')
  return true
}

/** Forgets everything (signing out). */
export function resetInbox(): void {
  batch(() => {
    conversations.value = null
    openId.value = null
    detail.value = null
    typingVisitors.value = new Set()
    fresh.value = new Set()
    spoken.value = []
    inboxError.value = null
    actionError.value = null
    claimedAs.value = null
    agents.value = []
    nextCursor.value = null
  })
  pagedIn = new Set()
}
