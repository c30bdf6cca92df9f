import { useSignal } from '@preact/signals'
import { useEffect, useRef } from 'preact/hooks'
import type { FlowStandingChange, FlowSummary } from '../../protocol/management'
import { changeFlowStanding, publishFlow } from '../../protocol/management-api'
import { api, messageOf } from '../api'
import { When } from '../dates'
import { EmbedSnippets } from '../embed/embed-snippets'
import { ResultsPanel } from '../results/results-panel'
import { announce } from '../session'
import { Deliveries } from './deliveries'
import { DropOff } from './drop-off'
import { FlowTestsPanel } from './flow-tests-panel'
import { Preview } from './preview'
import { Upload } from './upload'
import { VersionsPanel } from './versions-panel'

/** One flow: publishing, a new version, its tests, the preview, the snippets, its results, where visitors drop off, and its webhook's deliveries. */
export function FlowPanel(props: { flow: FlowSummary; onChanged(): Promise<void>; onClose(): void }) {
  const { flow } = props
  const heading = useRef<HTMLHeadingElement>(null)
  const error = useSignal<string | null>(null)
  const busy = useSignal(false)
  // A version counter: a new version or a publish reloads what depends on the flow's content.
  const version = useSignal(0)
  useEffect(() => heading.current?.focus(), [])

  const act = async (action: 'publish' | FlowStandingChange, done: string) => {
    busy.value = true
    try {
      await (action === 'publish' ? publishFlow(api, flow.id) : changeFlowStanding(api, flow.id, action))
      error.value = null
      await props.onChanged()
      version.value++
      announce(done)
    } catch (caught) {
      error.value = messageOf(caught)
    } finally {
      busy.value = false
    }
  }

  return (
    <article class="panel" aria-labelledby="flow-title">
      <header class="panel-head">
        <div class="panel-title">
          <h2 id="flow-title" tabIndex={-1} ref={heading}>
            {flow.name}
          </h2>
          {/* Closing the panel changes nothing of the flow: it stands apart from the flow's actions. */}
          <button type="button" class="quiet" onClick={props.onClose}>
            Close panel
          </button>
        </div>
        <p>
          {flow.publishedAt ? (
            <>
              Published <When iso={flow.publishedAt} />.
            </>
          ) : (
            'Not published: visitors cannot start it.'
          )}
          {flow.publishedAt &&
            Date.parse(flow.updatedAt) > Date.parse(flow.publishedAt) &&
            ' Changed since: publish to show visitors the changes.'}
        </p>
        {/* biome-ignore lint/a11y/useSemanticElements: a row of buttons named as one; a <fieldset> brings a box and a <legend> the row does not need */}
        <div class="actions" role="group" aria-label="Flow actions">
          <button type="button" disabled={busy.value} onClick={() => act('publish', `${flow.name} is published.`)}>
            Publish
          </button>
          {flow.publishedAt && (
            <button type="button" disabled={busy.value} onClick={() => act('unpublish', `${flow.name} is unpublished.`)}>
              Unpublish
            </button>
          )}
          <button
            type="button"
            disabled={busy.value}
            onClick={() =>
              flow.isArchived ? act('unarchive', `${flow.name} is back from the archive.`) : act('archive', `${flow.name} is archived.`)
            }
          >
            {flow.isArchived ? 'Unarchive' : 'Archive'}
          </button>
        </div>
        {error.value && (
          <p class="error" role="alert">
            {error.value}
          </p>
        )}
      </header>
      <Upload
        flow={flow}
        onUploaded={async () => {
          await props.onChanged()
          version.value++
        }}
      />
      <VersionsPanel
        flow={flow}
        version={version.value}
        onRolledBack={async () => {
          await props.onChanged()
          version.value++
        }}
      />
      <FlowTestsPanel flow={flow} />
      <EmbedSnippets flow={flow} />
      <Preview flow={flow} version={version.value} />
      <ResultsPanel flow={flow} version={version.value} />
      <DropOff flow={flow} version={version.value} />
      <Deliveries flow={flow} />
    </article>
  )
}
