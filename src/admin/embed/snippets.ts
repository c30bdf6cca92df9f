/** What a snippet embeds: a flow by its public id, from this service, with a publishable token. */
export interface SnippetInput {
  origin: string
  publicId: string
  token: string
}

export type EmbedMode = 'inline' | 'bubble' | 'popup' | 'share'

export const MODES: Array<{ mode: EmbedMode; title: string; help: string }> = [
  { mode: 'inline', title: 'Inline', help: 'The chat where the tag stands in your page.' },
  { mode: 'bubble', title: 'Bubble', help: 'A button in a corner that opens the chat.' },
  { mode: 'popup', title: 'Popup', help: 'A window over your page (open it from your page, or with data-auto-show-delay).' },
  { mode: 'share', title: 'Share link', help: 'A full page of its own (the flow must allow public sharing).' },
]

/** Attribute values are written inside double quotes: no value may close them. */
const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/** The snippet of one mode, as docs/site-owners/embedding.md writes it. */
export function snippet(mode: EmbedMode, input: SnippetInput): string {
  if (mode === 'share') return `${input.origin}/${encodeURIComponent(input.publicId)}`
  const data = `data-flow="${attribute(input.publicId)}" data-api-host="${attribute(input.origin)}" data-token="${attribute(input.token)}"`
  const extra = mode === 'inline' ? '' : ` data-mode="${mode}"`
  return `<script src="${attribute(input.origin)}/widget/v1/flow-chat.js" defer\n  ${data}${extra}></script>`
}
