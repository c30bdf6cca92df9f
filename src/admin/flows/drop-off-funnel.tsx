import type { FlowAnalytics } from '../../protocol/analytics'

/** A step of the funnel: the conversations started, each group in the flow's order, those completed. */
export interface FunnelStep {
  key: string
  label: string
  count: number
}

export function funnelSteps(figures: FlowAnalytics): FunnelStep[] {
  return [
    { key: 'started', label: 'Started', count: figures.started },
    ...figures.groups.map((group) => ({ key: `group:${group.id}`, label: groupLabel(group), count: group.reached })),
    { key: 'completed', label: 'Completed', count: figures.completed },
  ]
}

export const groupLabel = (group: { id: string; title: string | null }) => group.title ?? `${group.id} (not in this version)`

/** Of the conversations started, as a whole percentage (one decimal below 10 %). */
export function shareOf(count: number, started: number): string {
  if (started === 0) return '–'
  const share = (count / started) * 100
  return `${share > 0 && share < 10 ? share.toFixed(1) : Math.round(share)} %`
}

const WIDTH = 640
const ROW = 44
const LABEL = 18
const BAR = 18

/**
 * The funnel as bars, one per step, as long as its share of the conversations started. A picture
 * of the table beside it: named as a whole for assistive technology, which reads the table.
 */
export function DropOffFunnel(props: { figures: FlowAnalytics }) {
  const steps = funnelSteps(props.figures)
  const most = Math.max(props.figures.started, ...steps.map((step) => step.count), 1)
  const height = steps.length * ROW
  const label = `Funnel: ${steps.map((step) => `${step.label} ${step.count}`).join(', ')}.`
  return (
    <svg class="funnel" viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-label={label} preserveAspectRatio="xMinYMin meet">
      {steps.map((step, i) => {
        const y = i * ROW
        const width = Math.max((step.count / most) * WIDTH, step.count > 0 ? 2 : 0)
        return (
          <g key={step.key} data-step={step.key}>
            <text x="0" y={y + LABEL - 4} class="funnel-label">
              {step.label}: {step.count} ({shareOf(step.count, props.figures.started)})
            </text>
            <rect x="0" y={y + LABEL} width={WIDTH} height={BAR} class="funnel-track" />
            <rect x="0" y={y + LABEL} width={width} height={BAR} class={step.key === 'completed' ? 'funnel-bar done' : 'funnel-bar'} />
          </g>
        )
      })}
    </svg>
  )
}
