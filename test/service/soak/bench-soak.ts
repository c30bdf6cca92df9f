/**
 * `npm run bench:soak`: the soak at full size (SOAK_CONVERSATIONS, default 1,000, 50 at a time;
 * two workers killed with SIGKILL and PostgreSQL restarted once), printing what happened to
 * every conversation and answer. Needs a PostgreSQL server installed (it starts its own).
 */
import { SOAK_FAULTS } from './faulting-proxy'
import { runSoak } from './soak-run'

const number = (name: string, fallback: number) => Number(process.env[name] ?? fallback)

const report = await runSoak({
  conversations: number('SOAK_CONVERSATIONS', 1_000),
  concurrency: number('SOAK_CONCURRENCY', 50),
  kills: number('SOAK_KILLS', 2),
  restarts: number('SOAK_RESTARTS', 1),
  faults: SOAK_FAULTS,
  deadlineMs: number('SOAK_DEADLINE_SECONDS', 180) * 1000,
  say: (line) => console.log(line),
})

const rows: [string, string | number][] = [
  ['conversations', report.conversations],
  ['finished', report.finished],
  ['stuck', report.stuck],
  ['failed (an error the visitor saw)', report.failed],
  ['answers sent', report.answersSent],
  ['recorded exactly once, in order', report.recordedOnce],
  ['lost', report.lost],
  ['duplicated', report.duplicated],
  ['recorded but never sent', report.unexpected],
  ['retries (faults the visitors rode out)', report.retries],
  ['startChat retries', report.startRetries],
  ['answer p50 / p99 (ms, retries included)', `${report.answerMs.p50} / ${report.answerMs.p99}`],
  [
    'faults: dropped requests / responses / 503 / slowed',
    `${report.faults.droppedRequests} / ${report.faults.droppedResponses} / ${report.faults.unavailable} / ${report.faults.slowed}`,
  ],
  ['workers killed (SIGKILL) / PostgreSQL restarts', `${report.kills} / ${report.restarts}`],
  [
    'memory of the instance never killed, MiB (after warm-up → after run)',
    `${report.memory.before} → ${report.memory.after} (${((report.memory.after / report.memory.before - 1) * 100).toFixed(1)} %)`,
  ],
  ['seconds', report.seconds],
]
for (const [name, value] of rows) console.log(`${name.padEnd(72)} ${value}`)
for (const error of new Set(report.errors)) console.log(`visitor saw: ${error}`)
process.exit(report.lost + report.duplicated + report.stuck + report.failed === 0 && report.finished === report.conversations ? 0 : 1)
