import { useSignal } from '@preact/signals'
import { useEffect } from 'preact/hooks'
import { MAX_RETENTION_DAYS } from '../../protocol/privacy'
import { messageOf } from '../api'
import { announce } from '../session'

interface Retention {
  retentionDays: number | null
  lastRun?: { startedAt: string; finishedAt?: string | null } | null
}

/** The retention setting: keep visitors' data until deleted, or delete it a number of days after their last activity. */
export function RetentionForm(props: { load(): Promise<Retention>; save(days: number | null): Promise<Retention> }) {
  const keep = useSignal(true)
  const days = useSignal('')
  const lastRun = useSignal<Retention['lastRun']>(null)
  const error = useSignal<string | null>(null)
  const loaded = useSignal(false)
  const show = (retention: Retention) => {
    loaded.value = true
    keep.value = retention.retentionDays === null
    days.value = retention.retentionDays === null ? days.value : String(retention.retentionDays)
    lastRun.value = retention.lastRun ?? null
  }
  useEffect(() => {
    props.load().then(show, (caught: unknown) => (error.value = messageOf(caught)))
  }, [])
  const submit = async (event: Event) => {
    event.preventDefault()
    const n = Number(days.value)
    if (!keep.value && !(Number.isInteger(n) && n >= 1 && n <= MAX_RETENTION_DAYS)) {
      return void (error.value = `Enter a whole number of days from 1 to ${MAX_RETENTION_DAYS}.`)
    }
    try {
      show(await props.save(keep.value ? null : n))
      error.value = null
      announce(
        keep.value ? "Visitors' data is kept until you delete it." : `Visitors' data is deleted ${n} days after their last activity.`,
      )
    } catch (caught) {
      error.value = messageOf(caught)
    }
  }
  return (
    <section class="privacy-retention" aria-labelledby="retention-title">
      <h2 id="retention-title">How long visitors' data is kept</h2>
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      {!loaded.value && !error.value && <p>Loading the setting…</p>}
      {loaded.value && (
        <form noValidate onSubmit={submit}>
          <fieldset>
            <legend>Results, uploads, logs and everything else a conversation leaves</legend>
            <label>
              <input type="radio" name="retention" checked={keep.value} onChange={() => (keep.value = true)} /> Keep until deleted
            </label>
            <label>
              <input type="radio" name="retention" checked={!keep.value} onChange={() => (keep.value = false)} /> Delete after a number of
              days
            </label>
            <label for="retention-days">Days after the visitor's last activity</label>
            <input
              id="retention-days"
              type="number"
              min={1}
              max={MAX_RETENTION_DAYS}
              disabled={keep.value}
              value={days.value}
              onInput={(event) => (days.value = event.currentTarget.value)}
            />
          </fieldset>
          <button type="submit">Save</button>
        </form>
      )}
      {lastRun.value?.finishedAt && (
        <p>Old data was last looked for {new Date(lastRun.value.finishedAt).toLocaleString()}; what it deleted is in the audit below.</p>
      )}
    </section>
  )
}
