import { useWidget } from './widget-context'

/** The flow's `progress` (0–100), when the theme enables the bar. */
export function ProgressBar() {
  const { conversation, layout } = useWidget()
  const config = layout.value.progress
  if (!config.enabled) return null
  const value = conversation.progress.value ?? 0
  return (
    <div
      class="progress"
      part="progress"
      data-placement={config.placement}
      data-position={config.position}
      role="progressbar"
      aria-label="Progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(value)}
    >
      {/* A custom property set through CSSOM: allowed under a strict style-src CSP. */}
      <div class="progress-fill" part="progress-fill" style={{ '--fct-progress-value': `${value}%` }} />
    </div>
  )
}
