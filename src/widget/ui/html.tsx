import { useLayoutEffect, useMemo, useRef } from 'preact/hooks'
import { createSanitizer } from '../content/purify'

let sanitize: ReturnType<typeof createSanitizer> | undefined

/**
 * The html chunk: an html-only message, sanitised by DOMPurify and the widget's own allow-lists
 * into nodes this component owns. It loads beside the core script when a flow announces a text
 * message (see message-content.tsx); most messages carry richText and never need it.
 */
export function HtmlContent({ html }: { html: string }) {
  const target = useRef<HTMLDivElement>(null)
  const nodes = useMemo(() => (sanitize ??= createSanitizer())(html), [html])
  useLayoutEffect(() => {
    target.current?.replaceChildren(nodes.cloneNode(true))
  }, [nodes])
  // Preact never renders children here: the sanitised nodes are the only content.
  return <div class="rt" ref={target} />
}
