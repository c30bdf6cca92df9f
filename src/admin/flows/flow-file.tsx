import { useSignal } from '@preact/signals'
import type { ComponentChildren } from 'preact'
import { messageOf } from '../api'
import { announce } from '../session'

/** Exports larger than this are refused before they are sent (the service's body limit is its own). */
const MAX_FILE_BYTES = 10 * 1024 * 1024

/**
 * A flow's exported file, dropped on the zone or chosen with the file button (the keyboard's
 * way), read as JSON and handed to `onFlow`; what is not a flow export is refused with the reason
 * (too large, not JSON, or the service's answer with what it names), and nothing is sent twice
 * while a file is on its way.
 */
export function FlowFile(props: { help: ComponentChildren; onFlow(flow: unknown, fileName: string): Promise<void> }) {
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
      await props.onFlow(parsed, file.name)
    } catch (caught) {
      error.value = `${file.name} was not accepted: ${messageOf(caught)}`
      announce('The file was not uploaded.')
    } finally {
      busy.value = false
    }
  }

  return (
    <>
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
        <p class="help">{props.help}</p>
      </div>
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
    </>
  )
}
