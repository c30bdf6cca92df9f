import { codeBlocks, documents } from '../../docs/doc-blocks'

/**
 * The placeholders the docs' snippets use, with what a test puts in their place: the flow
 * service's address, a flow of the test's and a publishable token of the test service's.
 */
export const PLACEHOLDERS = { service: 'https://chat.example.com', flow: 'YOUR_FLOW_ID', token: 'YOUR_PUBLISHABLE_TOKEN' } as const

export interface Snippet {
  /** The document and heading it is under, and its position there. */
  name: string
  code: string
}

/**
 * The ` ```html ` blocks of every document (README.md, docs/…) that embed a chat from the flow
 * service's placeholder address: what a site owner copies, so what the tests run, as written.
 */
export function htmlSnippets(): Snippet[] {
  return documents()
    .flatMap(codeBlocks)
    .filter((block) => block.lang === 'html' && block.code.includes(PLACEHOLDERS.service))
    .map(({ name, code }) => ({ name, code }))
}

/** A snippet as a site owner pastes it: the placeholders replaced by their own values. */
export function fillIn(code: string, values: { service: string; flow: string; token: string }): string {
  return code
    .replaceAll(PLACEHOLDERS.service, values.service)
    .replaceAll(PLACEHOLDERS.flow, values.flow)
    .replaceAll(PLACEHOLDERS.token, values.token)
}

/** How the snippet shows its chat: behind a launcher, in a dialog, or in the page. */
export function modeOf(code: string): 'bubble' | 'popup' | 'inline' {
  if (/data-mode="bubble"|<flow-chat-bubble|initBubble\(/.test(code)) return 'bubble'
  if (/data-mode="popup"|<flow-chat-popup|initPopup\(/.test(code)) return 'popup'
  return 'inline'
}
