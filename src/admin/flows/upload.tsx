import { useSignal } from '@preact/signals'
import type { FlowSummary } from '../../protocol/management'
import { replaceFlow } from '../../protocol/management-api'
import { api, messageOf } from '../api'
import { announce } from '../session'

/** Exports larger than this are refused before they are sent (the service's body limit is its own). */
const MAX_FILE_BYTES = 10 * 1024 * 1024

/**
 * A new version of the flow from its exported file (PUT /v1/flows/{id}): dropped on the zone, or
 * chosen with the file button (the keyboard's way). The flow keeps its id and public id; the
 * service's refusal of a file that is not a flow is shown with what it names.
 */
export function Upload(props: { flow: FlowSummary; onUploaded(): Promise<void> }) {
  const error = useSignal<string | null>(null)
  const over = useSignal(false)
  const busy = useSignal(false)

  const send = async (file: File) => {
    error.value = null
    if (file.size > MAX_FILE_BYTES) {
      error.value = `${file.name} is larger than 10 MB: it cannot be a flow export.`
      return
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(await file.text())
    } catch {
      error.value = `${file.name} is not JSON: choose the .json file your flow builder exported.`
      announce('The file was not uploaded.')
      return
    }
    busy.value = true
    try {
      await replaceFlow(api, props.flow.id, parsed)
      await props.onUploaded()
      announce(`${file.name} is the new version of ${props.flow.name}. Publish it to show visitors.`)
    } catch (caught) {
      error.value = `${file.name} was not accepted: ${messageOf(caught)}`
      announce('The file was not uploaded.')
    } finally {
      busy.value = false
    }
  }

  return (
    <section class="section" aria-labelledby="upload-title">
      <h3 id="upload-title">New version</h3>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a pointer shortcut; the file button inside does the same by keyboard */}
      <div
        class={over.value ? 'drop over' : 'drop'}
        onDragOver={(event) => {
          event.preventDefault()
          over.value = true
        }}
        onDragLeave={() => (over.value = false)}
        onDrop={(event) => {
          event.preventDefault()
          over.value = false
          const file = event.dataTransfer?.files[0]
          if (file) void send(file)
        }}
      >
        <p>Drop the flow's exported JSON file here, or</p>
        <label class="file-button">
          Choose a file
          <input
            type="file"
            accept="application/json,.json"
            disabled={busy.value}
            onChange={(event) => {
              const input = event.currentTarget
              const file = input.files?.[0]
              input.value = ''
              if (file) void send(file)
            }}
          />
        </label>
        <p class="help">It replaces the flow's content and keeps its address and embeds.</p>
      </div>
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
    </section>
  )
}
