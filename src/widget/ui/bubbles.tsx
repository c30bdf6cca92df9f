import { type GuestEntry, type HostEntry, liveHandoff } from '../chat/index'
import { Avatar, useAvatar } from './avatar'
import { isImagePending, settleImage } from './image-reveal'
import { isMediaMessage, MessageContent, streamedAnswerView } from './message-content'
import { RetryButton } from './retry-button'
import type { WidgetProps } from './widget'

// These components read signals while rendering, so @preact/signals memoizes them: a parent
// re-render with the same props skips them, and only their own signals re-render them. That is
// what keeps appending a message from touching the bubbles already on screen.

/**
 * A message from the flow; only a theme change (avatars) or its picture settling renders it
 * again. An image bubble stays hidden, typing dots in its place, until its picture has loaded or
 * failed, then shows at its final size in one go (see image-reveal.ts).
 */
export function HostBubble({ entry, widget }: WidgetProps & { entry: HostEntry }) {
  const avatar = useAvatar(widget, 'host')
  const pending = isImagePending(entry)
  return (
    <>
      {pending && <TypingRow widget={widget} />}
      <div class="row host enter" part="host-row" hidden={pending}>
        <Avatar side="host" config={avatar} url={entry.avatarUrl} base={widget.base} />
        <div class={isMediaMessage(entry.message) ? 'bubble host media' : 'bubble host'} part="bubble host-bubble">
          {entry.stream ? (
            <streamedAnswerView.View
              widget={widget}
              stream={entry.stream}
              loading={<AnswerDots />}
              fallback={<span>{entry.stream.text}</span>}
            />
          ) : (
            <MessageContent widget={widget} message={entry.message} onSettled={() => settleImage(entry)} />
          )}
        </div>
      </div>
    </>
  )
}

/**
 * The visitor's answer, with its delivery state: waiting for the network (a polite status, not an
 * error) and, once retries are spent, a retry control.
 */
export function GuestBubble({ entry, widget }: WidgetProps & { entry: GuestEntry }) {
  const avatar = useAvatar(widget, 'guest')
  const status = entry.status.value
  const error = entry.error.value
  const problem = status === 'failed' || (status === 'rejected' && error)
  return (
    <div class="row guest enter" part="guest-row">
      <div class="guest-wrap">
        <div class="bubble guest" part="bubble guest-bubble" data-status={status}>
          {entry.text}
        </div>
        {status === 'sending' && <span class="sr-only">{widget.t('sending')}</span>}
        {status === 'waiting' && (
          <div class="status waiting" part="answer-status" role="status">
            {widget.t('waitingForNetwork')}
          </div>
        )}
        {problem && (
          <div class="status" part="answer-status" role="alert">
            <span>{status === 'failed' ? `${widget.t('notSent')} ${error ? widget.say(error) : ''}` : widget.say(error!)}</span>
            {status === 'failed' && <RetryButton label={widget.t('retry')} onRetry={() => retry(widget, entry)} />}
          </div>
        )}
      </div>
      <Avatar side="guest" config={avatar} url={entry.avatarUrl} base={widget.base} />
    </div>
  )
}

/** Sends a failed answer again; a message to a person goes again through its handoff. */
function retry({ conversation }: WidgetProps['widget'], entry: GuestEntry) {
  if (entry.live) liveHandoff(conversation.stage.peek())?.resend(entry)
  else conversation.retry()
}

/** An AI answer's dots until its view's chunk is here (it is requested as soon as a step announces it). */
const AnswerDots = () => (
  <span class="typing" aria-hidden="true">
    <span />
    <span />
    <span />
  </span>
)

/** Dots while the flow "types" its next message. */
export function TypingIndicator({ widget }: WidgetProps) {
  return widget.conversation.typing.value ? <TypingRow widget={widget} /> : null
}

function TypingRow({ widget }: WidgetProps) {
  const avatar = useAvatar(widget, 'host')
  return (
    <div class="row host" part="host-row typing-row">
      <Avatar side="host" config={avatar} base={widget.base} />
      <div class="bubble host typing" part="bubble host-bubble typing" aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
    </div>
  )
}
