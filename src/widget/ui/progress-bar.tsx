import { useLayoutEffect, useRef } from 'preact/hooks'
import { progressBarSchema } from '../../protocol/progress-bar'
import { adoptChunkCss } from './chunk-css'
import { ACCENT, css, v } from './css'
import type { WidgetProps } from './widget'

/** The bar's look, added to the widget's styles when it first shows. */
const PROGRESS_CSS = css`
.progress {
  position: absolute;
  left: 0;
  right: 0;
  top: 0;
  z-index: 2;
  height: ${v('progress-thickness', '4px')};
  background: ${v('progress-track', '#e5e7eb')};
}
.progress[data-placement="bottom"] { top: auto; bottom: 0; }
.progress[data-position="fixed"] { position: fixed; }
.progress-fill {
  height: 100%;
  width: var(--fct-progress-value, 0%);
  background: ${v('progress-color', ACCENT)};
  transition: width 0.3s ease-out;
}
@media (prefers-reduced-motion: reduce) { .progress-fill { transition: none; } }
`

/**
 * The flow's `progress` (0–100). A chunk of its own, requested as soon as the published flow's
 * theme enables the bar (it arrives before or with the first step, so the bar never waits on one).
 */
export function ProgressBar({ widget: { conversation, t } }: WidgetProps) {
  const bar = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => adoptChunkCss(bar.current, PROGRESS_CSS), [])
  // The core read only whether the bar shows: where it goes is validated here.
  const config = progressBarSchema.safeParse(conversation.publishedFlow.value?.theme?.general?.progressBar).data
  const value = conversation.progress.value ?? 0
  return (
    <div
      class="progress"
      part="progress"
      ref={bar}
      data-placement={config?.placement === 'Bottom' ? 'bottom' : 'top'}
      data-position={config?.position === 'fixed' ? 'fixed' : 'absolute'}
      role="progressbar"
      aria-label={t('progress')}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(value)}
    >
      {/* A custom property set through CSSOM: allowed under a strict style-src CSP. */}
      <div class="progress-fill" part="progress-fill" style={{ '--fct-progress-value': `${value}%` }} />
    </div>
  )
}
