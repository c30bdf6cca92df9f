import { useLayoutEffect, useMemo, useRef } from 'preact/hooks'
import type { Sanitizer } from '../content/purify'
import type { WidgetProps } from './widget'

/** How html reads as text (announcements, typing time, a stand-in if DOMPurify cannot load): see content/plain-text.ts. */
export { htmlText } from '../content/html-text'

/**
 * The html chunk: an html-only message, sanitised by DOMPurify and the widget's own allow-lists
 * (the sanitizer chunk, shared with AI answers) into nodes this component owns. It loads beside
 * the core script when a flow announces a text message (see message-content.tsx); most messages
 * carry richText and never need it.
 */
export function bindHtmlContent(createSanitizer: () => Sanitizer) {
  let sanitize: Sanitizer | undefined
  return function HtmlContent({ widget, html }: WidgetProps & { html: string }) {
    const target = useRef<HTMLDivElement>(null)
    const nodes = useMemo(() => (sanitize ??= createSanitizer())(html, widget.base), [html])
    useLayoutEffect(() => {
      target.current?.replaceChildren(nodes.cloneNode(true))
    }, [nodes])
    // Preact never renders children here: the sanitised nodes are the only content.
    return <div class="rt" ref={target} />
  }
}
