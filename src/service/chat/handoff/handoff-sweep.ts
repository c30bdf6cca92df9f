import { log } from '../../observability/log'
import type { ChatDeps } from '../chat-deps'
import { endHandoff, goOn } from './handoff-resume'

/**
 * Deadlines, on every process: a waiting handoff past its deadline takes the "no one answered"
 * exit even when its visitor closed the tab, and an ended handoff whose flow did not go on (the
 * process ending it stopped in between) goes on. Every process sweeps; the handoff's conditional
 * UPDATE is the claim (only one process ends it; a person claiming it in time wins over the
 * deadline), and the step that follows runs under the session's lease and is stored once under
 * its idempotency key, so two processes going on with the same handoff produce one step and one
 * `continued` event.
 */

const POLL_MS = 1_000
/** An ended handoff is left this long to the process that ended it before another goes on with it. */
const GRACE_MS = 15_000
const BATCH = 50

export class HandoffSweep {
  private timer: NodeJS.Timeout | undefined
  private running: Promise<number> | undefined
  private stopped = false

  constructor(
    private readonly deps: ChatDeps,
    private readonly options: { pollMs?: number; graceMs?: number } = {},
  ) {}

  /** Ends what is due now and goes on with what was left; resolves with how many handoffs it moved. */
  runDue(): Promise<number> {
    this.running ??= this.sweep().finally(() => {
      this.running = undefined
    })
    return this.running
  }

  start(): void {
    const tick = () => {
      if (this.stopped) return
      void this.runDue()
        .catch((error: unknown) => log().error({ err: error }, 'sweeping handed-over conversations failed'))
        .finally(() => {
          if (this.stopped) return
          this.timer = setTimeout(tick, this.options.pollMs ?? POLL_MS)
          this.timer.unref()
        })
    }
    tick()
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    await this.running?.catch(() => undefined)
  }

  private async sweep(): Promise<number> {
    const { deps } = this
    const due = await deps.store.handoffs.due(deps.now(), this.options.graceMs ?? GRACE_MS, BATCH)
    let moved = 0
    await Promise.all(
      due.map(async ({ id, status }) => {
        try {
          if (status === 'waiting') {
            if (await endHandoff(deps, id, { kind: 'timeout' })) moved++
            return
          }
          const record = await deps.store.handoffs.find(id)
          if (record && record.continuedAt === null) {
            await goOn(deps, record)
            moved++
          }
        } catch (error) {
          log().warn({ err: error, handoff: id }, 'a handed-over conversation could not go on yet; trying again later')
        }
      }),
    )
    return moved
  }
}
