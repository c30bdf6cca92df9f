import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { REPO_ROOT } from './test-service'

/**
 * The placeholders the docs' snippets use, with what a test puts in their place: the flow
 * service's address, a flow of the test's and a publishable token of the test service's.
 */
export const PLACEHOLDERS = { service: 'https://chat.example.com', flow: 'YOUR_FLOW_ID', token: 'YOUR_PUBLISHABLE_TOKEN' } as const

export interface Snippet {
  /** The heading the snippet is under, and its position there. */
  name: string
  code: string
}

/**
 * The ` ```html ` blocks of a document (a path from the repository root), each named by the
 * heading it is under: what a reader copies, so what the tests run, as it is written.
 */
export function htmlSnippets(document: string): Snippet[] {
  const text = readFileSync(resolve(REPO_ROOT, document), 'utf8')
  const snippets: Snippet[] = []
  let heading = document
  let count = 0
  for (const [, title, code] of text.matchAll(/^#{1,6} (.+)$|^```html\n([\s\S]*?)^```$/gm)) {
    if (title) {
      heading = title
      count = 0
    } else if (code) snippets.push({ name: `${heading} #${++count}`, code })
  }
  return snippets
}

/** A snippet as a site owner pastes it: the placeholders replaced by their own values. */
export function fillIn(code: string, values: { service: string; flow: string; token: string }): string {
  return code
    .replaceAll(PLACEHOLDERS.service, values.service)
    .replaceAll(PLACEHOLDERS.flow, values.flow)
    .replaceAll(PLACEHOLDERS.token, values.token)
}
