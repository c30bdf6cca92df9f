import { isWaitingForWebhook, liveHandoff } from '../chat/index'
import { lazyView } from './lazy-view'
import type { WidgetProps } from './widget'

/**
 * A failure the visitor must see, with the one control that can get the chat going again; one
 * nothing can help (the page's set-up) is said calmly, without a control.
 */
export function FailureNotice({ widget: { conversation, focusTranscript, say, t } }: WidgetProps) {
  const failure = conversation.failure.value
  if (!failure) return null
  const { detail, words, recovery } = failure
  const label = t(detail.code === 'session-expired' ? 'newConversation' : recovery === 'resend' ? 'retry' : 'tryAgain')
  return (
    <div class={recovery === 'none' ? 'notice calm' : 'notice'} part="notice" role={recovery === 'none' ? 'status' : 'alert'}>
      <p>{say(words)}</p>
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
export function LoadingIndicator({ widget: { conversation, t } }: WidgetProps) {
  if (conversation.stage.value.tag !== 'loading') return null
  return (
    <div class="row host" part="host-row loading" role="status">
      <div class="bubble host typing" part="bubble host-bubble typing">
        <span aria-hidden="true" />
        <span aria-hidden="true" />
        <span aria-hidden="true" />
        <span class="sr-only">{t('loading')}</span>
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

/** The waiting view is a chunk of its own (waiting-view.tsx), requested when a step announces a wait. */
export const waitingView = lazyView('waiting view', () => import('./waiting-view').then((chunk) => chunk.WaitingView))

/** Where the next bubble will come while the flow waits for a webhook. */
export function WaitingNotice({ widget }: WidgetProps) {
  return isWaitingForWebhook(widget.conversation.stage.value) ? <waitingView.View widget={widget} /> : null
}

/**
 * The live part of a handoff (handoff-view.tsx, a chunk of its own): requested when a step brings
 * the handoff or a published flow has a handoff block; the person's lines in the transcript too.
 */
const handoffViews = () => import('./handoff-view')
export const handoffView = lazyView('handoff view', () => handoffViews().then((chunk) => chunk.HandoffView))
export const agentLineView = lazyView('handoff view', () => handoffViews().then((chunk) => chunk.AgentLine))

/** While a person is asked: the status, their typing, the visitor's field and leaving. */
export function HandoffNotice({ widget }: WidgetProps) {
  const live = liveHandoff(widget.conversation.stage.value)
  return live ? <handoffView.View widget={widget} live={live} /> : null
}
