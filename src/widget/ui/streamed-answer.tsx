import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { StreamedAnswer } from '../chat/index'
import { createBlockSplitter } from '../content/markdown-blocks'
import { createMarkdownRenderer, renderMarkdown, type MarkdownRenderer } from '../content/markdown'
import type { Sanitizer } from '../content/purify'
import { localize } from '../i18n/locale'
import { adoptChunkCss } from './chunk-css'
import { RetryButton } from './bubbles'
import { css } from './styles'
import type { WidgetProps } from './widget'

/**
 * The streamed-answer chunk: AI answers as sanitized Markdown, while they stream in and after.
 * It loads with the sanitizer chunk when a flow has AI blocks or a step announces a stream.
 */

const CSS = css`
.md > :first-child, .md-open > :first-child { margin-top: 0; }
.md > :last-child, .md-open > :last-child { margin-bottom: 0; }
.md p, .md ul, .md ol, .md pre, .md blockquote, .md table, .md h1, .md h2, .md h3, .md h4 { margin: 0.5em 0; }
.md h1, .md h2, .md h3, .md h4 { font-size: 1.05em; font-weight: 700; }
.md ul, .md ol { padding-inline-start: 1.4em; }
.md pre { overflow-x: auto; padding: 8px 10px; border-radius: 6px; background: rgba(0, 0, 0, 0.06); white-space: pre; }
.md code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
.md blockquote { padding-inline-start: 0.8em; border-inline-start: 3px solid currentColor; opacity: 0.85; }
.md a { color: inherit; text-decoration: underline; }
.md-open { display: contents; }
.typing.md-dots { padding: 4px 0; }
.md[data-streaming] .md-open > :last-child::after, .md[data-streaming] .md-open:empty::after {
  content: ''; display: inline-block; width: 0.5em; height: 1em; margin-inline-start: 2px; vertical-align: text-bottom;
  background: currentColor; animation: fc-caret 1s steps(2, start) infinite;
}
@keyframes fc-caret { to { visibility: hidden; } }
@media (prefers-reduced-motion: reduce) { .md[data-streaming] .md-open > :last-child::after, .md[data-streaming] .md-open:empty::after { animation: none; } }
`

export interface AnswerController {
  /** Renders the block still being written now (at the end, or before a change of state). */
  flush(): void
  dispose(): void
}

/**
 * Shows `stream` in `root` as it grows. Completed blocks are rendered once and appended; only
 * the block being written is rendered again, at most once per frame however many pieces come;
 * so a piece costs the same at the end of a long answer as at its start.
 */
export function mountAnswer(root: HTMLElement, stream: StreamedAnswer, render: MarkdownRenderer, onText: () => void): AnswerController {
  const open = document.createElement('div')
  open.className = 'md-open'
  let splitter = createBlockSplitter()
  let frame = 0
  const flush = () => {
    if (frame) cancelAnimationFrame(frame)
    frame = 0
    open.replaceChildren(render(splitter.open))
  }
  const add = (piece: string) => {
    if (!piece) return
    for (const block of splitter.push(piece)) root.insertBefore(render(block), open)
    frame ||= requestAnimationFrame(flush)
    onText()
  }
  const reset = (text: string) => {
    splitter = createBlockSplitter()
    root.replaceChildren(open)
    open.replaceChildren()
    add(text)
  }
  reset(stream.text)
  const stop = stream.listen((text, replace) => (replace ? reset(text) : add(text)))
  return {
    flush,
    dispose() {
      stop()
      if (frame) cancelAnimationFrame(frame)
    },
  }
}

export function bindAnswerViews(createSanitizer: () => Sanitizer) {
  let renderer: MarkdownRenderer | undefined
  const render: MarkdownRenderer = (markdown) => (renderer ??= createMarkdownRenderer(createSanitizer()))(markdown)

  /** A finished Markdown message (a remembered answer): rendered once. */
  function MarkdownView({ text }: { text: string }) {
    const root = useRef<HTMLDivElement>(null)
    useLayoutEffect(() => {
      adoptChunkCss(root.current, CSS)
      root.current?.replaceChildren(renderMarkdown(render, text))
    }, [text])
    return <div class="md" ref={root} />
  }

  /** An answer as it streams in: typing dots until its first text, a caret while it grows, a retry when it failed. */
  function StreamedAnswerView({ widget: { locale, t }, stream }: WidgetProps & { stream: StreamedAnswer }) {
    const root = useRef<HTMLDivElement>(null)
    const controller = useRef<AnswerController | null>(null)
    const [empty, setEmpty] = useState(stream.text === '')
    const status = stream.status.value
    const error = stream.error.value
    useLayoutEffect(() => {
      const element = root.current!
      adoptChunkCss(element, CSS)
      controller.current = mountAnswer(element, stream, render, () => setEmpty(stream.text === ''))
      return () => controller.current?.dispose()
    }, [stream])
    useLayoutEffect(() => {
      if (status !== 'streaming') controller.current?.flush()
    }, [status])
    return (
      <>
        {status === 'streaming' && empty && (
          <span class="typing md-dots">
            <span aria-hidden="true" />
            <span aria-hidden="true" />
            <span aria-hidden="true" />
            <span class="sr-only">{t('answerComing')}</span>
          </span>
        )}
        <div class="md" ref={root} hidden={empty && status === 'streaming'} data-streaming={status === 'streaming' ? '' : undefined} />
        {error && (
          <div class="status" part="answer-status" role="alert">
            <span>{localize(locale, error.message)}</span>
            {error.retryable && <RetryButton label={t('retryAnswer')} onRetry={stream.retry} />}
          </div>
        )}
      </>
    )
  }
  return { MarkdownView, StreamedAnswerView }
}
