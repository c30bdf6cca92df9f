import { useEffect } from 'preact/hooks'
import type { HandoffSummary } from '../../protocol/handoff'
import { When } from '../dates'
import { muted, setMuted, unlockAudio } from './chime'
import { ConversationPanel, STATUS_WORDS } from './conversation-panel'
import {
  closeConversation,
  conversations,
  fresh,
  inboxError,
  loadMoreConversations,
  nextCursor,
  openConversation,
  openId,
  openInbox,
  spoken,
  streamState,
  typingVisitors,
  waitingCount,
} from './inbox-state'

export const INBOX_TITLE_ID = 'inbox-title'

const GROUPS: Array<{ title: string; statuses: ReadonlyArray<HandoffSummary['status']> }> = [
  { title: 'Waiting', statuses: ['waiting'] },
  { title: 'Live', statuses: ['live'] },
  { title: 'Ended', statuses: ['ended', 'unanswered', 'left'] },
]

const CONNECTION_WORDS = {
  connecting: 'Connecting…',
  open: 'Up to date',
  waiting: 'Connection lost: reconnecting…',
  closed: 'Not receiving updates',
} as const

/** After the open conversation's panel is replaced, focus goes to `selector` instead of being lost. */
const focusNext = (selector: string) => requestAnimationFrame(() => document.querySelector<HTMLElement>(selector)?.focus())

/**
 * Follows the inbox while the person is signed in, whichever view is shown: a new waiting
 * conversation is counted in the tab's title and the view's name, announced and chimed even while
 * the owner works on a flow.
 */
export function useInbox(): void {
  useEffect(() => {
    const stop = openInbox()
    // The browser lets the chime play once the person pressed a key or clicked in the page.
    document.addEventListener('keydown', unlockAudio, { capture: true })
    document.addEventListener('pointerdown', unlockAudio, { capture: true })
    return () => {
      stop()
      document.removeEventListener('keydown', unlockAudio, { capture: true })
      document.removeEventListener('pointerdown', unlockAudio, { capture: true })
      document.title = TITLE
    }
  }, [])

  useEffect(() => {
    document.title = waitingCount.value ? `(${waitingCount.value}) ${TITLE}` : TITLE
  }, [waitingCount.value])
}

const TITLE = 'Flow console'

/**
 * The team's inbox: the workspace's conversations handed to a person, waiting ones first, kept
 * current by the inbox's stream, a new waiting one shown, announced and (unless muted) chimed;
 * the open one beside them, whole.
 */
export function InboxView() {
  const select = (id: string) => {
    void openConversation(id)
    focusNext('#conversation-title')
  }
  const close = () => {
    const id = openId.value
    closeConversation()
    focusNext(`[data-handoff-id="${CSS.escape(id ?? '')}"]`)
  }

  // Focus goes to the first conversation added (the button may be gone: the list is whole).
  const loadMore = async () => {
    const [first] = await loadMoreConversations()
    if (first) focusNext(`[data-handoff-id="${CSS.escape(first)}"]`)
  }

  const list = conversations.value
  return (
    <div class="inbox">
      <section class="inbox-list" aria-labelledby={INBOX_TITLE_ID}>
        <div class="list-head">
          <h2 id={INBOX_TITLE_ID} tabIndex={-1}>
            Inbox
          </h2>
          <button type="button" class="quiet" aria-pressed={muted.value ? 'false' : 'true'} onClick={() => setMuted(!muted.value)}>
            Sound for new conversations
          </button>
        </div>
        <p class={`connection ${streamState.value}`}>{CONNECTION_WORDS[streamState.value]}</p>
        {inboxError.value && (
          <p class="error" role="alert">
            {inboxError.value}
          </p>
        )}
        {list === null && <p class="loading">Loading conversations…</p>}
        {list?.length === 0 && <p class="help">No conversations yet. When a flow hands one to your team, it shows here.</p>}
        {list &&
          GROUPS.map((group) => {
            const items = list.filter((item) => group.statuses.includes(item.status))
            if (items.length === 0) return null
            const id = `inbox-group-${group.title.toLowerCase()}`
            return (
              <div key={group.title}>
                <h3 id={id}>
                  {group.title} ({items.length})
                </h3>
                <ul class="conversations" aria-labelledby={id}>
                  {items.map((item) => (
                    <ConversationEntry key={item.id} item={item} onOpen={select} />
                  ))}
                </ul>
              </div>
            )
          })}
        {nextCursor.value && (
          <button type="button" class="quiet load-more" onClick={() => void loadMore()}>
            Load more conversations
          </button>
        )}
      </section>
      {openId.value ? (
        <ConversationPanel
          key={openId.value}
          title={list?.find((item) => item.id === openId.value)?.flowName ?? 'Conversation'}
          onClose={close}
        />
      ) : list?.length ? (
        <p class="help">Choose a conversation to read it and answer.</p>
      ) : null}
    </div>
  )
}

function ConversationEntry(props: { item: HandoffSummary; onOpen(id: string): void }) {
  const { item } = props
  const isFresh = fresh.value.has(item.id)
  const isTyping = typingVisitors.value.has(item.id)
  return (
    <li>
      <button
        type="button"
        class={`conversation${isFresh ? ' fresh' : ''}`}
        data-handoff-id={item.id}
        aria-current={item.id === openId.value ? 'true' : undefined}
        onClick={() => props.onOpen(item.id)}
      >
        <span class="conversation-name">
          {isFresh && <span class="badge">New</span>} {item.flowName}
        </span>
        <span class="conversation-meta">
          {STATUS_WORDS[item.status]}
          {item.agent && item.status === 'live' && ` · ${item.agent.name}`} ·{' '}
          <When iso={item.endedAt ?? item.claimedAt ?? item.requestedAt} />
        </span>
        {isTyping ? (
          <span class="conversation-last">The visitor is typing…</span>
        ) : (
          item.lastMessage && <span class="conversation-last">{item.lastMessage}</span>
        )}
      </button>
    </li>
  )
}

/** Each new message and each new waiting conversation, read once, in order, whichever view is shown. */
export function InboxAnnouncements() {
  return (
    <div class="live" role="log" aria-live="polite">
      {spoken.value.map((line) => (
        <p key={line.id}>{line.text}</p>
      ))}
    </div>
  )
}
