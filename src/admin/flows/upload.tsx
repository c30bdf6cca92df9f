import type { FlowSummary } from '../../protocol/management'
import { replaceFlow } from '../../protocol/management-api'
import { api } from '../api'
import { announce } from '../session'
import { FlowFile } from './flow-file'

/**
 * A new version of the flow from its exported file (PUT /v1/flows/{id}). The flow keeps its id
 * and public id; the service's refusal of a file that is not a flow is shown with what it names.
 */
export function Upload(props: { flow: FlowSummary; onUploaded(): Promise<void> }) {
  return (
    <section class="section" aria-labelledby="upload-title">
      <h3 id="upload-title">New version</h3>
      <FlowFile
        help="It replaces the flow's content and keeps its address and embeds."
        onFlow={async (flow, fileName) => {
          await replaceFlow(api, props.flow.id, flow)
          await props.onUploaded()
          announce(`${fileName} is the new version of ${props.flow.name}. Publish it to show visitors.`)
        }}
      />
    </section>
  )
}
