import { useSignal } from '@preact/signals'
import { useEffect } from 'preact/hooks'
import type { FlowSummary } from '../../protocol/management'
import { getWebhook, listWebhookDeliveries } from '../../protocol/management-api'
import type { WebhookDelivery } from '../../protocol/webhooks'
import { api, messageOf } from '../api'
import { When } from '../dates'
import { announce } from '../session'

/** The completion webhook of the flow and its latest deliveries, each attempt's outcome. */
export function Deliveries(props: { flow: FlowSummary }) {
  const webhook = useSignal<{ url: string } | null | undefined>(undefined)
  const deliveries = useSignal<WebhookDelivery[]>([])
  const error = useSignal<string | null>(null)

  const load = async (said?: string) => {
    try {
      const [hook, list] = await Promise.all([getWebhook(api, props.flow.id), listWebhookDeliveries(api, props.flow.id, 50)])
      webhook.value = hook
      deliveries.value = list
      error.value = null
      if (said) announce(said)
    } catch (caught) {
      error.value = messageOf(caught)
    }
  }
  useEffect(() => void load(), [props.flow.id])

  return (
    <section class="section" aria-labelledby="deliveries-title">
      <h3 id="deliveries-title">Completion webhook</h3>
      {webhook.value === null && <p class="help">This flow has no completion webhook (set one with PUT /v1/flows/{'{id}'}/webhook).</p>}
      {webhook.value && (
        <p>
          Completed results are sent to <code>{webhook.value.url}</code>.
        </p>
      )}
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      {deliveries.value.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrollable region takes keyboard focus so that keyboard users can scroll it (WCAG 2.1.1)
        <div class="scroll" tabIndex={0} role="region" aria-label="Webhook deliveries">
          <table>
            <caption>Latest deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Result</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.value.map((delivery) => (
                <tr key={delivery.id}>
                  <td>
                    <When iso={delivery.createdAt} />
                  </td>
                  <td>
                    <code>{delivery.resultId}</code>
                  </td>
                  <td>{delivery.status}</td>
                  <td>
                    {delivery.attempts.length === 0
                      ? 'none yet'
                      : delivery.attempts
                          .map((attempt) => `${new Date(attempt.at).toLocaleTimeString('en')}: ${attempt.status ?? attempt.error ?? '?'}`)
                          .join('; ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {webhook.value && (
        <button type="button" onClick={() => load('Deliveries refreshed.')}>
          Refresh deliveries
        </button>
      )}
    </section>
  )
}
