import { describe, expect, it } from 'vitest'
import { databaseUrl } from '../helpers/database'
import { SOAK_FAULTS } from './faulting-proxy'
import { runSoak } from './soak-run'

/**
 * The soak's short run (`npm run bench:soak` is the long one): 100 conversations, 50 at once,
 * through a faulting load balancer to two worker processes and a second instance on a PostgreSQL
 * server of the test's own, one worker killed mid-answer and the database restarted once.
 * In CI's PostgreSQL leg (DATABASE_URL set), where a server is known to be installed.
 */
describe.skipIf(!databaseUrl)('a hundred conversations through faults, a killed worker and a database restart', () => {
  it('finish every conversation with every answer recorded exactly once', { timeout: 600_000 }, async () => {
    const report = await runSoak({ conversations: 100, concurrency: 50, kills: 1, restarts: 1, faults: SOAK_FAULTS, deadlineMs: 180_000 })
    expect(report.errors).toEqual([])
    expect({ finished: report.finished, stuck: report.stuck, failed: report.failed }).toEqual({ finished: 100, stuck: 0, failed: 0 })
    expect({ lost: report.lost, duplicated: report.duplicated, unexpected: report.unexpected }).toEqual({
      lost: 0,
      duplicated: 0,
      unexpected: 0,
    })
    expect(report.recordedOnce).toBe(report.answersSent)
    // The faults did happen: the run is not a quiet one that proves nothing.
    expect(report.kills).toBe(1)
    expect(report.restarts).toBe(1)
    expect(report.faults.droppedResponses).toBeGreaterThan(0)
    expect(report.faults.droppedRequests).toBeGreaterThan(0)
  })
})
