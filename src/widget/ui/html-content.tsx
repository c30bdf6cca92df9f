import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import { loadSanitizer } from '../content/load-sanitizer'
import { htmlToPlain } from '../content/plain-text'
import { widgetWarning } from '../chat/index'
import { useWidget } from './widget-context'

/**
 * An html-only message: sanitised by DOMPurify (loaded on first need) into nodes this component
 * owns. Until then, or if the sanitiser cannot load, the message's text is shown instead.
 */
export function HtmlContent({ html }: { html: string }) {
  const { emit } = useWidget()
  const target = useRef<HTMLDivElement>(null)
  const [ready, setReady] = useState(false)

  useLayoutEffect(() => {
    let current = true
    setReady(false)
    loadSanitizer().then(
      (sanitize) => {
        if (!current || !target.current) return
        target.current.replaceChildren(sanitize(html))
        setReady(true)
      },
      (error: unknown) => {
        if (current) emit('flowchat:log', widgetWarning('content-load-failed', 'The HTML sanitizer could not be loaded; the message is shown as plain text', { error: String(error) }))
      },
    )
    return () => {
      current = false
    }
  }, [html])

  return (
    <>
      {/* Preact never renders children here: the sanitised nodes are the only content. */}
      <div class="rt" ref={target} hidden={!ready} />
      {!ready && <span>{htmlToPlain(html)}</span>}
    </>
  )
}
