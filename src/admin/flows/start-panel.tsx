import { importFlow } from '../../protocol/management-api'
import { api } from '../api'
import { announce } from '../session'
import { flows, openFlowId, reloadFlows, workspaceId } from '../workspace'
import { FlowFile } from './flow-file'
import { TemplatesList } from './templates-list'

/** The heading the "New flow" button brings focus to. */
export const START_TITLE_ID = 'start-title'

/**
 * What the console shows beside the list while no flow is open: what to do next (open a flow, or
 * create the workspace's first one), and creating a flow from an exported file or a template.
 * A new flow opens at once; like any edit, it reaches visitors once published.
 */
export function StartPanel() {
  const empty = flows.value?.length === 0

  const create = async (flow: unknown, from: string) => {
    if (!workspaceId.value) throw new Error('The workspace is still loading: try again in a moment.')
    const made = await importFlow(api, workspaceId.value, flow)
    await reloadFlows()
    openFlowId.value = made.id
    announce(`${made.name} is created from ${from}. Publish it to let visitors start it.`)
  }

  return (
    <article class="panel" aria-labelledby={START_TITLE_ID}>
      <header class="panel-head">
        <h2 id={START_TITLE_ID} tabIndex={-1}>
          {empty ? 'Create your first flow' : 'Open a flow, or create one'}
        </h2>
        <p>
          {empty
            ? 'This workspace has no flows yet. Create one from the file your flow builder exported, or start from a template and replace it with your own version later.'
            : 'Choose a flow in the list to publish it, try it, copy the snippet that embeds it and read its results. Or create a new one here.'}
        </p>
      </header>
      <section class="section" aria-labelledby="from-file-title">
        <h3 id="from-file-title">From a file</h3>
        <FlowFile
          help="The flow gets an address of its own. Exported again after an edit, the file becomes its new version."
          onFlow={(flow, fileName) => create(flow, fileName)}
        />
      </section>
      <section class="section" aria-labelledby="templates-title">
        <h3 id="templates-title">From a template</h3>
        <p class="help">
          Starter flows that come with the service: create one, try it in the preview, then publish it as it is or replace it with your own
          version.
        </p>
        <TemplatesList onCreate={(template) => create(template.flow, `the ${template.name} template`)} />
      </section>
    </article>
  )
}
