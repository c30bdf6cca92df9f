import { useSignal } from '@preact/signals'
import { useEffect } from 'preact/hooks'
import type { AuditLine, EraseResponse, VisitorSelectorInput } from '../../protocol/privacy'
import { eraseVisitor, exportVisitorFile, getRetention, privacyAudit, setRetention } from '../../protocol/privacy-api'
import { api, messageOf } from '../api'
import { Confirm } from '../confirm'
import { download } from '../download'
import { announce } from '../session'
import { RetentionForm } from './retention-form'

/** What each kind of row is called, in the order the counts are shown. */
export const KIND_LABELS: Record<string, string> = {
  results: 'Results (conversations)',
  answers: 'Answers',
  sessions: 'Sessions',
  uploads: 'Uploaded files',
  logs: 'Logs',
  webhookDeliveries: 'Webhook deliveries',
  handoffs: 'Conversations with a person',
  handoffEvents: 'Messages with a person',
  aiAnswers: 'AI answers',
  aiAnswerParts: 'AI answer parts',
  idempotentReplies: 'Stored replies',
  outboxEmails: 'Outbox e-mails',
  files: 'Files',
}

/** "3 results, 6 answers, …": the kinds with rows. */
export const countsInWords = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${(KIND_LABELS[kind] ?? kind).toLowerCase()}`)
    .join(', ') || 'nothing'

/**
 * The workspace's privacy screen: how long visitors' data is kept, finding one visitor to count,
 * erase (after a count and a confirmation) or download their data, and the audit of both.
 */
export function PrivacyView() {
  const audit = useSignal<AuditLine[] | null>(null)
  const error = useSignal<string | null>(null)
  const loadAudit = async () => {
    try {
      audit.value = await privacyAudit(api)
    } catch (caught) {
      error.value = messageOf(caught)
    }
  }
  useEffect(() => void loadAudit(), [])
  return (
    <>
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      <RetentionForm load={() => getRetention(api)} save={(days) => setRetention(api, days)} />
      <VisitorRequests onDone={loadAudit} />
      <section class="privacy-audit" aria-labelledby="audit-title">
        <h2 id="audit-title">Audit</h2>
        <p>
          Every erasure, export and retention run: what, how many and by which token. It never holds the data or what a visitor was found
          by.
        </p>
        {audit.value && audit.value.length === 0 && <p>Nothing erased or exported yet.</p>}
        {audit.value && audit.value.length > 0 && (
          <table>
            <caption class="visually-hidden">Erasures, exports and retention runs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Found by</th>
                <th scope="col">By</th>
                <th scope="col">Rows</th>
              </tr>
            </thead>
            <tbody>
              {audit.value.map((line) => (
                <tr key={line.id}>
                  <td>{new Date(line.createdAt).toLocaleString()}</td>
                  <td>{line.action}</td>
                  <td>{line.selector ?? '—'}</td>
                  <td>{line.actor}</td>
                  <td>{countsInWords(line.counts)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  )
}

type FindBy = 'variable' | 'user' | 'result'
const VALUE_LABELS: Record<FindBy, string> = { variable: 'Value', user: 'User id', result: 'Result id' }
const MISSING: Record<FindBy, string> = {
  variable: 'Enter the variable and the value to look for.',
  user: 'Enter the user id.',
  result: 'Enter the result id.',
}

/** Finding a visitor: count first, then erase after confirming, or download everything held. */
function VisitorRequests(props: { onDone(): void }) {
  const by = useSignal<FindBy>('variable')
  const variable = useSignal('Email')
  const value = useSignal('')
  const counted = useSignal<EraseResponse | null>(null)
  const confirming = useSignal(false)
  const error = useSignal<string | null>(null)
  const selector = (): VisitorSelectorInput =>
    by.value === 'result'
      ? { resultId: value.value.trim() }
      : // A user id is the site's, matched exactly: spaces and all.
        by.value === 'user'
        ? { userId: value.value }
        : { variable: variable.value.trim(), value: value.value.trim() }
  // Changing who is looked for drops the count: an erasure always follows a count of the same visitor.
  const edit = (apply: () => void) => {
    apply()
    counted.value = null
    confirming.value = false
  }
  const run = async (action: () => Promise<void>) => {
    error.value = null
    if (!value.value.trim() || (by.value === 'variable' && !variable.value.trim())) {
      return void (error.value = MISSING[by.value])
    }
    try {
      await action()
    } catch (caught) {
      error.value = messageOf(caught)
    }
  }
  const count = () =>
    run(async () => {
      counted.value = await eraseVisitor(api, { ...selector(), dryRun: true })
      announce(`Found ${countsInWords(counted.value.counts)}.`)
    })
  const erase = () =>
    run(async () => {
      confirming.value = false
      const erased = await eraseVisitor(api, selector())
      counted.value = null
      announce(`Erased ${countsInWords(erased.counts)}.`)
      props.onDone()
    })
  const exportData = () =>
    run(async () => {
      const name = await download(await exportVisitorFile(api, selector()), 'visitor-data.json')
      announce(`Downloaded ${name}.`)
      props.onDone()
    })

  return (
    <section class="privacy-visitor" aria-labelledby="visitor-title">
      <h2 id="visitor-title">A visitor's data</h2>
      <p>
        To answer an erasure or access request, find the visitor by an e-mail address (or another variable's value, compared without regard
        to case) in any of the workspace's flows, by the user id your site signs them in with, or by a result id.
      </p>
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault()
          void count()
        }}
      >
        <label for="visitor-by">Find by</label>
        <select id="visitor-by" value={by.value} onChange={(event) => edit(() => (by.value = event.currentTarget.value as FindBy))}>
          <option value="variable">a variable's value</option>
          <option value="user">a user id</option>
          <option value="result">a result id</option>
        </select>
        {by.value === 'variable' && (
          <>
            <label for="visitor-variable">Variable</label>
            <input
              id="visitor-variable"
              value={variable.value}
              onInput={(event) => edit(() => (variable.value = event.currentTarget.value))}
            />
          </>
        )}
        <label for="visitor-value">{VALUE_LABELS[by.value]}</label>
        <input id="visitor-value" value={value.value} onInput={(event) => edit(() => (value.value = event.currentTarget.value))} />
        <button type="submit">Count their data</button>
        <button type="button" onClick={() => void exportData()}>
          Download their data (JSON)
        </button>
      </form>
      {counted.value && (
        <div class="privacy-count">
          <table>
            <caption>What erasing this visitor deletes</caption>
            <tbody>
              {Object.entries(counted.value.counts).map(([kind, n]) => (
                <tr key={kind}>
                  <th scope="row">{KIND_LABELS[kind] ?? kind}</th>
                  <td>{n}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {counted.value.counts.results ? (
            <button type="button" class="danger" onClick={() => (confirming.value = true)}>
              Erase their data
            </button>
          ) : (
            <p>No result matches: there is nothing to erase.</p>
          )}
        </div>
      )}
      {confirming.value && counted.value && (
        <Confirm
          question={`Erase ${countsInWords(counted.value.counts)}? This cannot be undone.`}
          action="Erase for good"
          onConfirm={() => void erase()}
          onCancel={() => (confirming.value = false)}
        />
      )}
    </section>
  )
}
