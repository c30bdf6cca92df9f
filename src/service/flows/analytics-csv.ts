import { stringify } from 'csv-stringify/sync'
import type { FlowAnalytics } from '../../protocol/analytics'
import { CSV_OPTIONS, neutraliseInnerFormulas } from '../results/csv-formulas'

/**
 * The drop-off figures as CSV, the rows the console's table shows: the conversations started,
 * each group and under it each input block, then those completed. Titles are the author's text:
 * a formula in one is neutralised as in the results export.
 */
export function analyticsCsv(figures: FlowAnalytics): string {
  const rows: (string | number)[][] = [
    ['Step', 'Group', 'Block', 'Block type', 'Conversations', 'Stopped after'],
    ['Started', '', '', '', figures.started, figures.stoppedBeforeAnswering],
  ]
  for (const group of figures.groups) {
    const title = neutraliseInnerFormulas(group.title ?? `${group.id} (not in this version)`)
    rows.push(['Group', title, '', '', group.reached, group.stoppedAfter])
    for (const block of group.blocks) {
      rows.push(['Block', title, block.id, block.type ?? '(not in this version)', block.reached, block.stoppedAfter])
    }
  }
  rows.push(['Completed', '', '', '', figures.completed, ''])
  return stringify(rows, { ...CSV_OPTIONS, bom: true })
}
