import type { FlowSummary } from '../../protocol/management'
import { announce } from '../session'
import { publishable } from '../workspace'
import { PublishableToken } from './publishable-token'
import { MODES, snippet } from './snippets'

const PLACEHOLDER = 'YOUR_PUBLISHABLE_TOKEN'

/** The embed snippet of each mode, with this service's address and a publishable token, copied in one click. */
export function EmbedSnippets(props: { flow: FlowSummary }) {
  const input = { origin: location.origin, publicId: props.flow.publicId, token: publishable.value || PLACEHOLDER }
  const copy = async (title: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      announce(`The ${title.toLowerCase()} snippet is copied.`)
    } catch {
      announce('The browser refused to copy: select the snippet and copy it yourself.')
    }
  }
  return (
    <section class="section" aria-labelledby="embed-title">
      <h3 id="embed-title">Embed</h3>
      <PublishableToken />
      {MODES.map(({ mode, title, help }) => {
        const text = snippet(mode, input)
        return (
          <div class="snippet" key={mode}>
            <h4 id={`snippet-${mode}`}>{title}</h4>
            <p class="help">{help}</p>
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useAriaPropsSupportedByRole: a snippet wider than a phone scrolls: keyboard users focus it to scroll, and hear its heading as its name */}
            <pre tabIndex={0} aria-labelledby={`snippet-${mode}`}>
              <code>{text}</code>
            </pre>
            <button type="button" onClick={() => copy(title, text)}>
              Copy {title.toLowerCase()} {mode === 'share' ? '' : 'snippet'}
            </button>
          </div>
        )
      })}
    </section>
  )
}
