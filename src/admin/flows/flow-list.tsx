import type { FlowSummary } from '../../protocol/management'

const count = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`

/** The workspace's flows with their result counts; opening one shows its panel, "New flow" the way to create one. */
export function FlowList(props: { flows: FlowSummary[] | null; openId: string | null; onOpen(id: string): void; onNew(): void }) {
  if (!props.flows) return <p class="loading">Loading flows…</p>
  return (
    <nav class="flows" aria-labelledby="flows-title">
      <div class="list-head">
        <h2 id="flows-title">Flows</h2>
        <button type="button" onClick={props.onNew}>
          New flow
        </button>
      </div>
      {props.flows.length === 0 && <p class="help">No flows yet.</p>}
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
