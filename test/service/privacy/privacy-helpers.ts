import { PNG } from '../fixtures/upload-files'
import { fileInputFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import type { TestService } from '../helpers/service'
import { upload } from '../uploads/upload-helpers'

/** The upload test flow (a file, then a text saved to "Email"), imported and published in the demo workspace. */
export async function publishedEmailFlow(svc: TestService): Promise<string> {
  const flow = await importOverHttp(
    svc,
    fileInputFlow(
      {},
      {
        variables: [
          { id: 'vFiles', name: 'Files' },
          { id: 'vName', name: 'Email' },
        ],
      },
    ),
  )
  await publishOverHttp(svc, flow.id)
  return flow.id as string
}

/**
 * A visitor's whole conversation: a file named `fileName` uploaded and sent, `email` answered,
 * and, as other parts of the service would write them, a stored log and an outbox e-mail naming
 * them; `user` signs the visitor in (an id and its hash). Returns the result's id.
 */
export async function visitorConversation(
  svc: TestService,
  flowId: string,
  email: string,
  fileName: string,
  user?: { id: string; hash: string },
): Promise<string> {
  const started = await svc.call('POST', `/v1/flows/${flowId}/startChat`, { json: user ? { user } : {} })
  const { sessionId, resultId } = started.body as { sessionId: string; resultId: string }
  const uploaded = await upload(svc, sessionId, PNG, { name: fileName, type: 'image/png', length: PNG.length })
  if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.status}`)
  const url = uploaded.body.url as string
  for (const message of [{ type: 'text', text: url, attachedFileUrls: [url] }, email]) {
    const step = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message } })
    if (step.status !== 200) throw new Error(`continueChat failed: ${step.status} ${step.text}`)
  }
  await svc.store.resultLogs.add(resultId, sessionId, [{ status: 'success', description: `Sent a receipt to ${email}` }], svc.clock.now())
  await svc.store.outbox.add({
    id: `mail-${resultId}`,
    workspaceId: 'demo',
    flowId,
    resultId,
    message: { from: 'shop@example.com', to: [email], cc: [], bcc: [], subject: `Your receipt, ${email}`, text: 'Thanks' },
    createdAt: svc.clock.now().toISOString(),
  })
  return resultId
}

/** Rows per table of the test's schema. */
export async function rowCounts(svc: TestService): Promise<Record<string, number>> {
  const tables = await svc.store.database.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
    [svc.schema],
  )
  const counts: Record<string, number> = {}
  for (const { table_name } of tables) {
    const rows = await svc.store.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${svc.schema}"."${table_name}"`)
    counts[table_name] = Number(rows[0]!.n)
  }
  return counts
}

/** How many rows each table lost between two `rowCounts`. */
export function removed(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.keys(before)
      .map((table) => [table, before[table]! - (after[table] ?? 0)])
      .filter(([, n]) => n !== 0),
  )
}

/** The table each kind of the privacy API's counts is rows of. */
const TABLE_OF: Record<string, string> = {
  results: 'results',
  answers: 'answers',
  sessions: 'sessions',
  idempotentReplies: 'idempotency_keys',
  aiAnswers: 'ai_streams',
  aiAnswerParts: 'ai_stream_parts',
  logs: 'result_logs',
  uploads: 'uploads',
  webhookDeliveries: 'webhook_deliveries',
  handoffs: 'handoffs',
  handoffEvents: 'handoff_events',
  outboxEmails: 'outbox',
}

/** The rows per table an erasure with these counts removes, as `removed` reports them (its audit line one more). */
export function expectedRemoval(counts: Record<string, number>): Record<string, number> {
  const tables = Object.entries(counts)
    .filter(([kind, n]) => kind in TABLE_OF && n !== 0)
    .map(([kind, n]) => [TABLE_OF[kind]!, n])
  return { ...Object.fromEntries(tables), privacy_audit: -1 }
}
