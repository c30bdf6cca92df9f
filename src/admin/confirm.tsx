import { useEffect, useRef } from 'preact/hooks'

/**
 * An action that cannot be undone, asked in the page (not a browser dialog): the question with
 * its two buttons, focus on "Cancel" so a stray Enter deletes nothing.
 */
export function Confirm(props: { question: string; action: string; onConfirm(): void; onCancel(): void }) {
  const cancel = useRef<HTMLButtonElement>(null)
  useEffect(() => cancel.current?.focus(), [])
  return (
    // biome-ignore lint/a11y/useSemanticElements: a question with its two buttons; a <fieldset> brings a box and a <legend> the dialog does not need
    <div class="confirm" role="group" aria-labelledby="confirm-question">
      <p id="confirm-question">{props.question}</p>
      <button type="button" class="danger" onClick={props.onConfirm}>
        {props.action}
      </button>
      <button type="button" ref={cancel} onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  )
}
