import { useLayoutEffect, useRef, useState } from 'preact/hooks'
import type { StreamedAnswer } from '../chat/index'
import { createMarkdownRenderer, type MarkdownRenderer } from '../content/markdown'
import { createBlockSplitter } from '../content/markdown-blocks'
import type { Sanitizer } from '../content/purify'
import { adoptChunkCss } from './chunk-css'
import { css } from './css'
import { RetryButton } from './retry-button'
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
  /** Renders what is waiting now, as much as a frame allows (at the end, or before a change of state). */
  flush(): void
  dispose(): void
}

/** Time a frame may spend rendering an answer's blocks before the rest waits for the next frame. */
const FRAME_BUDGET_MS = 8

/**
 * Renders Markdown into `root` as it is added, block by block (markdown-blocks.ts), a frame's
 * work at a time: blocks are at most 8 KB, so however much text arrives at once (a long answer,
 * a remembered one), the page paints between them. Completed blocks are rendered
 * once and appended; the block being written is rendered again once the others are done.
 */
function createPainter(root: HTMLElement, render: MarkdownRenderer) {
  const open = document.createElement('div')
  open.className = 'md-open'
  let splitter = createBlockSplitter()
  let waiting: string[] = []
  let next = 0
  let frame = 0
  const paint = () => {
    if (frame) cancelAnimationFrame(frame)
    frame = 0
    const deadline = performance.now() + FRAME_BUDGET_MS
    // The open block's nodes show text the waiting blocks now hold: not twice on screen.
    if (next < waiting.length) open.replaceChildren()
    for (let first = true; ; first = false) {
      if (!first && performance.now() > deadline) {
        frame = requestAnimationFrame(paint)
        return
      }
      if (next === waiting.length) break
      root.insertBefore(render(waiting[next++]!), open)
    }
    waiting = []
    next = 0
    open.replaceChildren(render(splitter.open))
  }
  const reset = () => {
    splitter = createBlockSplitter()
    waiting = []
    next = 0
    root.replaceChildren(open)
    open.replaceChildren()
  }
  reset()
  return {
    paint,
    reset,
    add(piece: string) {
      for (const block of splitter.push(piece)) waiting.push(block)
      frame ||= requestAnimationFrame(paint)
    },
    dispose() {
      if (frame) cancelAnimationFrame(frame)
    },
  }
}

/**
 * Shows `stream` in `root` as it grows. Completed blocks are rendered once and appended; only
 * the block being written is rendered again, at most once per frame however many pieces come;
 * so a piece costs the same at the end of a long answer as at its start.
 */
export function mountAnswer(root: HTMLElement, stream: StreamedAnswer, render: MarkdownRenderer, onText: () => void): AnswerController {
  const painter = createPainter(root, render)
  const add = (piece: string) => {
    if (!piece) return
    painter.add(piece)
    onText()
  }
  const reset = (text: string) => {
    painter.reset()
    add(text)
  }
  reset(stream.text)
  const stop = stream.listen((text, replace) => (replace ? reset(text) : add(text)))
  return {
    flush: painter.paint,
    dispose() {
      stop()
      painter.dispose()
    },
  }
}

export function bindAnswerViews(createSanitizer: () => Sanitizer) {
  let renderer: MarkdownRenderer | undefined
  const render: MarkdownRenderer = (markdown) => (renderer ??= createMarkdownRenderer(createSanitizer()))(markdown)

  /** A finished Markdown message (a remembered answer): rendered once, a frame's work at a time. */
  function MarkdownView({ text }: { text: string }) {
    const root = useRef<HTMLDivElement>(null)
    useLayoutEffect(() => {
      const element = root.current!
      adoptChunkCss(element, CSS)
      const painter = createPainter(element, render)
      painter.add(text)
      painter.paint()
      return painter.dispose
    }, [text])
    return <div class="md" ref={root} />
  }

  /** An answer as it streams in: typing dots until its first text, a caret while it grows, a retry when it failed. */
  function StreamedAnswerView({ widget: { say, t }, stream }: WidgetProps & { stream: StreamedAnswer }) {
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
            <span>{say(error.words)}</span>
            {error.retryable && <RetryButton label={t('retryAnswer')} onRetry={stream.retry} />}
          </div>
        )}
      </>
    )
  }
  return { MarkdownView, StreamedAnswerView }
}
