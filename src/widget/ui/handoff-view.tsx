import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { type Agent, MAX_HANDOFF_MESSAGE_LENGTH } from '../../protocol/handoff'
import type { AgentEntry, LiveHandoff } from '../chat/index'
import { safeUrl, WEB_SCHEMES } from '../content/url'
import { adoptChunkCss } from './chunk-css'
import { css } from './css'
import { isComposing } from './inputs/use-answer'
import { MessageContent } from './message-content'
import type { Widget, WidgetProps } from './widget'

/**
 * A conversation handed to a person of the owner's team: its status, the person typing, the
 * visitor's field and the control that leaves (HandoffView), and the person's lines in the
 * transcript (AgentLine). A chunk of its own, requested when a step brings the handoff (or a
 * published flow has a handoff block).
 */

const CSS = css`
.bubble.agent { background: #ffffff; color: #1f2937; border: 1px solid #c7ccd4; border-radius: 16px; }
.agent-name { display: block; margin-bottom: 2px; font-size: 13px; font-weight: 600; white-space: normal; }
.agent-avatar { display: grid; place-items: center; font-size: 15px; font-weight: 600; color: #ffffff; background: #4b5563; }
.handoff-note { margin: 4px 0; text-align: center; font-size: 13px; opacity: 0.8; }
.handoff-bar { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px; font-size: 14px; }
.handoff-status { margin: 0; }
.handoff-typing { display: inline-flex; align-items: center; gap: 6px; font-size: 13px; opacity: 0.85; }
.handoff-typing .typing { padding: 0; }
.button.quiet { background: transparent; color: inherit; border: 1px solid currentColor; }
`

/** The person's picture, or the first letter of their name where they have none (decorative: the name is in the bubble). */
function AgentAvatar({ agent, base }: { agent: Agent | undefined; base: string | undefined }) {
  const [broken, setBroken] = useState(false)
  const src = agent?.avatarUrl ? safeUrl(agent.avatarUrl, WEB_SCHEMES, base) : undefined
  if (src && !broken) {
    return <img class="avatar" part="avatar agent-avatar" src={src} alt="" referrerpolicy="no-referrer" onError={() => setBroken(true)} />
  }
  return (
    <span class="avatar agent-avatar" part="avatar agent-avatar" aria-hidden="true">
      {[...(agent?.name.trim() || '?')][0]!.toUpperCase()}
    </span>
  )
}

/**
 * A line of the live part that is not the visitor's: the person's message (their name and
 * avatar beside it, a look of its own, text as sanitised Markdown through the bubbles' content
 * view), or the service's own note ("Ada joined") as a quiet line.
 */
export function AgentLine({ widget, entry }: WidgetProps & { entry: AgentEntry }) {
  const anchor = useRef<HTMLDivElement & HTMLParagraphElement>(null)
  useLayoutEffect(() => adoptChunkCss(anchor.current, CSS), [])
  if (entry.author === 'system') {
    return (
      <p class="handoff-note" part="handoff-note" ref={anchor}>
        {entry.text}
      </p>
    )
  }
  return (
    <div class="row host enter" part="agent-row" ref={anchor}>
      <AgentAvatar agent={entry.agent} base={widget.base} />
      <div class="bubble agent" part="bubble agent-bubble">
        <span class="agent-name" part="agent-name">
          {entry.agent?.name}
        </span>
        <MessageContent widget={widget} message={{ id: entry.key, type: 'text', content: { plainText: entry.text, format: 'markdown' } }} />
      </div>
    </div>
  )
}

/** What the status line says: where the handoff stands, or that the connection is being restored. */
function statusText({ t, say }: Widget, live: LiveHandoff): string {
  const trouble = live.trouble.value
  if (trouble) return say(trouble)
  const status = live.status.value
  if (status === 'live') return t('handoffLive', { name: live.agent.value?.name ?? '' })
  return status === 'waiting' || status === 'connecting' ? t('handoffWaiting') : ''
}

/**
 * Below the transcript while a person is asked: the status (a polite status region, placed empty
 * and then filled, so screen readers say each change), the person typing, the visitor's field and
 * the control that leaves the queue (or ends the conversation).
 */
export function HandoffView({ widget, live }: WidgetProps & { live: LiveHandoff }) {
  const { t } = widget
  const anchor = useRef<HTMLDivElement>(null)
  const field = useRef<HTMLInputElement>(null)
  const composing = useRef(false)
  const [placed, setPlaced] = useState(false)
  /** Focus is in this view: when it goes (the flow goes on), focus waits on the transcript for the next question. */
  const holdsFocus = useRef(false)
  useLayoutEffect(() => {
    adoptChunkCss(anchor.current, CSS)
    return () => {
      if (holdsFocus.current) widget.focusTranscript()
    }
  }, [])
  useEffect(() => setPlaced(true), [])
  useEffect(() => {
    // The visitor answered the flow a moment ago: the field takes focus, where they were typing.
    if (widget.hasFocus()) field.current?.focus({ preventScroll: true })
  }, [])
  const status = live.status.value
  const agent = live.agent.value
  const leaving = live.leaving.value
  const draft = live.draft.value
  const send = () => {
    if (live.send(field.current?.value ?? draft)) field.current?.focus({ preventScroll: true })
  }
  return (
    <div
      class="handoff"
      part="handoff"
      ref={anchor}
      onFocusIn={() => (holdsFocus.current = true)}
      onFocusOut={() => (holdsFocus.current = false)}
    >
      {live.agentTyping.value && (
        <div class="row host" part="host-row typing-row">
          <AgentAvatar agent={agent ?? undefined} base={widget.base} />
          <span class="handoff-typing" part="agent-typing">
            <span class="typing" aria-hidden="true">
              <span />
              <span />
              <span />
            </span>
            {t('handoffTyping', { name: agent?.name ?? '' })}
          </span>
        </div>
      )}
      <div class="handoff-bar" part="handoff-bar">
        <p class="handoff-status" part="handoff-status" role="status">
          {placed ? statusText(widget, live) : ''}
        </p>
        {/* Not disabled while leaving: a disabled button drops the keyboard's focus. */}
        <button type="button" class="button small quiet" part="button leave-button" aria-disabled={leaving} onClick={live.leave}>
          {t(status === 'live' ? 'handoffLeaveChat' : 'handoffLeaveQueue')}
        </button>
      </div>
      <form
        class="input-row"
        part="input-row"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          send()
        }}
      >
        <input
          ref={field}
          class="field"
          part="input"
          type="text"
          value={draft}
          placeholder={t('handoffField')}
          aria-label={t('handoffField')}
          maxLength={MAX_HANDOFF_MESSAGE_LENGTH}
          readOnly={leaving}
          onInput={(event) => {
            live.draft.value = event.currentTarget.value
            live.typed()
          }}
          onKeyDown={(event) => {
            if (event.key !== 'Enter' || isComposing(event, composing.current)) return
            event.preventDefault()
            send()
          }}
          onCompositionStart={() => (composing.current = true)}
          onCompositionEnd={() => (composing.current = false)}
        />
        <button type="submit" class="button" part="button send-button" disabled={leaving || !draft.trim()}>
          {t('send')}
        </button>
      </form>
    </div>
  )
}
