import { isWaitingForWebhook } from '../chat/index'
import { lazyView } from './lazy-view'
import type { WidgetProps } from './widget'

/** A failure the visitor must see, with the one control that can get the chat going again. */
export function FailureNotice({ widget: { conversation, focusTranscript } }: WidgetProps) {
  const failure = conversation.failure.value
  if (!failure) return null
  const { detail, recovery } = failure
  const label = detail.code === 'session-expired' ? 'Start a new conversation' : recovery === 'resend' ? 'Retry' : 'Try again'
  return (
    <div class="notice" part="notice" role="alert">
      <p>{detail.message}</p>
      {recovery !== 'none' && (
        <button
          type="button"
          class="button small"
          part="button notice-button"
          onClick={() => {
            // The notice goes away: focus waits on the transcript for what comes next.
            focusTranscript()
            if (recovery === 'resend') conversation.retry()
            else conversation.reset()
          }}
        >
          {label}
        </button>
      )}
    </div>
  )
}

/** Shown until the first step arrives, so the box is never blank. */
export function LoadingIndicator({ widget: { conversation } }: WidgetProps) {
  if (conversation.stage.value.tag !== 'loading') return null
  return (
    <div class="row host" part="host-row loading" role="status">
      <div class="bubble host typing" part="bubble host-bubble typing">
        <span aria-hidden="true" />
        <span aria-hidden="true" />
        <span aria-hidden="true" />
        <span class="sr-only">Loading the chat…</span>
      </div>
    </div>
  )
}

/** The restart notice is a chunk of its own (restart-notice.tsx), requested when a flow remembers users or a restart happens. */
export const restartNoticeView = lazyView('restart notice', () => import('./restart-notice').then((chunk) => chunk.RestartNoticeView))

/** Why the visitor does not see the conversation they left: it could not go on. */
export function RestartNotice({ widget }: WidgetProps) {
  const reason = widget.conversation.notice.value
  return reason ? <restartNoticeView.View widget={widget} reason={reason} /> : null
}

/** Said (on screen and in the live region) while the flow waits for an outside system. */
export const WAITING_TEXT = 'Waiting for an update. The chat will go on by itself.'

/** The waiting view is a chunk of its own (waiting-view.tsx), requested when a step announces a wait. */
export const waitingView = lazyView('waiting view', () => import('./waiting-view').then((chunk) => chunk.WaitingView))

/** Where the next bubble will come while the flow waits for a webhook. */
export function WaitingNotice({ widget }: WidgetProps) {
  return isWaitingForWebhook(widget.conversation.stage.value) ? <waitingView.View widget={widget} /> : null
}
