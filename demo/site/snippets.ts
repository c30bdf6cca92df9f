import type { PageContext } from './pages'
import type { SeededFlow } from './seed'

/** How a demo page embeds its chat: the script tag alone, with or without a launcher. */
export type SnippetMode = 'standard' | 'bubble' | 'popup'

const MODE_ATTRIBUTES: Record<SnippetMode, string> = {
  standard: '',
  bubble: '\n  data-mode="bubble" data-preview-message="Questions? Ask me."',
  popup: '\n  data-mode="popup" data-auto-show-delay="5000"',
}

/** The one tag a site owner pastes to embed `flow` (the docs' snippets, with this service's values). */
export function scriptSnippet(flow: SeededFlow, ctx: PageContext, mode: SnippetMode): string {
  return `<script src="${ctx.apiHost}/widget/v1/flow-chat.js" defer
  data-flow="${flow.publicId}" data-api-host="${ctx.apiHost}" data-token="${ctx.publishableToken}"${MODE_ATTRIBUTES[mode]}></script>`
}

/** The script and an element written in the page, for owners who place the chat themselves. */
export function elementSnippet(flow: SeededFlow, ctx: PageContext, tag = 'flow-chat'): string {
  return `<script src="${ctx.apiHost}/widget/v1/flow-chat.js" defer></script>
<${tag} flow="${flow.publicId}" api-host="${ctx.apiHost}" token="${ctx.publishableToken}"></${tag}>`
}
