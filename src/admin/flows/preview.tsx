import { useSignal } from '@preact/signals'
import { useEffect, useRef } from 'preact/hooks'
import type { FlowSummary } from '../../protocol/management'
import { publishable } from '../workspace'

const WIDGET_SCRIPT = '/widget/v1/flow-chat.js'

/** Loads the widget this service serves, once per page: the preview is the widget itself. */
function loadWidget(): Promise<void> {
  if (customElements.get('flow-chat')) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = WIDGET_SCRIPT
    script.onload = () => resolve()
    script.onerror = () => reject(new Error('The widget could not be loaded from this service.'))
    document.head.append(script)
  })
}

/**
 * The published flow as visitors get it, in the widget served by this service, with the
 * publishable token the snippets carry. Started on request (it starts a conversation, which
 * counts as a result) and started again after each publish.
 */
export function Preview(props: { flow: FlowSummary; version: number }) {
  const shown = useSignal(false)
  const error = useSignal<string | null>(null)
  const host = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const target = host.current
    if (!shown.value || !target || !publishable.value) return
    let gone = false
    loadWidget()
      .then(() => {
        if (gone) return
        const chat = document.createElement('flow-chat')
        chat.setAttribute('flow', props.flow.publicId)
        chat.setAttribute('token', publishable.value!)
        chat.setAttribute('label', `Preview of ${props.flow.name}`)
        // A Redirect block opens its page in a new tab: the flow never takes the console away.
        chat.setAttribute('redirects', 'new-tab')
        target.replaceChildren(chat)
      })
      .catch((caught: Error) => (error.value = caught.message))
    return () => {
      gone = true
      target.replaceChildren()
    }
  }, [shown.value, publishable.value, props.version, props.flow.publicId])

  const blocked = !props.flow.publishedAt
    ? 'Publish the flow to preview it.'
    : !publishable.value
      ? 'The preview needs a publishable token (see Embed).'
      : null
  return (
    <section class="section" aria-labelledby="preview-title">
      <h3 id="preview-title">Preview</h3>
      {blocked ? (
        <p class="help">{blocked}</p>
      ) : (
        <button type="button" aria-expanded={shown.value} onClick={() => (shown.value = !shown.value)}>
          {shown.value ? 'Hide the preview' : 'Show the preview'}
        </button>
      )}
      {!blocked && <p class="help">A real conversation: what you answer here is kept among the results.</p>}
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      <div class="preview" ref={host} hidden={!shown.value || Boolean(blocked)} />
    </section>
  )
}
