import type { FlowSummary } from '../../protocol/management'

const count = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`

/** The workspace's flows with their result counts; opening one shows its panel. */
export function FlowList(props: { flows: FlowSummary[] | null; openId: string | null; onOpen(id: string): void }) {
  if (!props.flows) return <p class="loading">Loading flows…</p>
  return (
    <nav class="flows" aria-labelledby="flows-title">
      <h2 id="flows-title">Flows</h2>
      {props.flows.length === 0 && (
        <p>
          No flows yet: import one with <code>npm run flows -- import</code> or the API.
        </p>
      )}
      <ul>
        {props.flows.map((flow) => (
          <li key={flow.id}>
            <button
              type="button"
              class="flow"
              data-flow-id={flow.id}
              aria-current={flow.id === props.openId ? 'true' : undefined}
              onClick={() => props.onOpen(flow.id)}
            >
              <span class="flow-name">{flow.name}</span>
              <span class="flow-meta">
                {flow.isArchived ? 'Archived' : flow.publishedAt ? 'Published' : 'Not published'} · {count(flow.results.total, 'result')} (
                {flow.results.completed.toLocaleString('en')} completed)
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  )
}
