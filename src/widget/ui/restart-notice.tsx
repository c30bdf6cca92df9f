import { useLayoutEffect, useRef } from 'preact/hooks'
import type { RestartReason } from '../chat/index'
import { adoptChunkCss } from './chunk-css'
import { css } from './css'
import type { WidgetProps } from './widget'

/** The notice's look, added to the widget's styles when it first shows. */
const RESTART_CSS = css`
.restart-notice {
  margin: 0 0 12px;
  padding: 8px 12px;
  border-radius: 8px;
  background: #f1f5f9;
  color: #1e293b;
  font-size: 14px;
  text-align: center;
}
`

const RESTART_TEXT = { republished: 'restartRepublished', expired: 'restartExpired', requested: 'restartRequested' } as const

/**
 * Why a remembered conversation could not go on. A chunk of its own: only a flow that remembers
 * users restarts one, and its chunk is requested as soon as the published flow says so.
 */
export function RestartNoticeView({ widget: { t }, reason }: WidgetProps & { reason: RestartReason }) {
  const notice = useRef<HTMLParagraphElement>(null)
  useLayoutEffect(() => adoptChunkCss(notice.current, RESTART_CSS), [])
  return (
    // Starting over is read out by the live region (live-region.tsx), which is there already.
    <p class="restart-notice" part="restart-notice" role={reason === 'requested' ? undefined : 'status'} ref={notice}>
      {t(RESTART_TEXT[reason])}
    </p>
  )
}
