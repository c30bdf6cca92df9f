import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import type { Conversation, Emit } from '../chat/index'
import type { CssValidator } from '../content/css'
import { type Locale, say, translate } from '../i18n/locale'
import { TypingIndicator } from './bubbles'
import { InputArea } from './inputs/input-area'
import { lazyView } from './lazy-view'
import { Announcements } from './live-region'
import { usePreloadViews } from './preload-views'
import { FailureNotice, HandoffNotice, LoadingIndicator, RestartNotice, WaitingNotice } from './status-views'
import { ThemeVarsView } from './theme/theme-vars'
import { TranscriptView } from './transcript-view'
import { useStickToBottom } from './use-stick-to-bottom'
import type { Widget } from './widget'

export interface AppProps {
  conversation: Conversation
  emit: Emit
  /** The chat's accessible name (the transcript region's); default "Chat", in its language. */
  label?: string
  /** The chat's language, direction and words (i18n/locale.ts). */
  locale: Locale
  /** `light`, `dark`, or `auto` (the visitor's system setting). */
  colorScheme?: string
  /** Defaults to the browser's `CSS.supports`. */
  isValidCss?: CssValidator | undefined
  /** See Widget.base. */
  base?: string | undefined
  /** The element's custom states: `unavailable` while the chat cannot run as the page set it up (`:state(unavailable)`). */
  states?: CustomStateSet | undefined
}

/** The whole chat UI for one conversation. */
export function App({ conversation, emit, label, isValidCss, base, locale, colorScheme, states }: AppProps) {
  const frame = useRef<HTMLDivElement>(null)
  const scroller = useRef<HTMLDivElement>(null)
  const widget = useMemo<Widget>(
    () => ({
      conversation,
      emit,
      base,
      locale,
      t: (id, values) => translate(locale, id, values),
      say: (words) => say(locale, words),
      focusTranscript: () => scroller.current?.focus({ preventScroll: true }),
      hasFocus: () => {
        // From the page's focus down through the shadow roots on its way (a launcher's, ours).
        const own = frame.current
        let active: Element | null = own && document.activeElement
        while (active && own && !own.contains(active)) active = active.shadowRoot?.activeElement ?? null
        return active !== null
      },
    }),
    [conversation, emit, base, locale],
  )
  // Nothing can help a set-up mistake: the chat is only its notice, and the element's box shrinks to it.
  const unavailable = conversation.failure.value?.recovery === 'none'
  useEffect(() => {
    if (!unavailable) return
    states?.add('unavailable')
    return () => states?.delete('unavailable')
  }, [unavailable])
  if (unavailable) {
    return (
      <div class="frame" part="frame" lang={locale.lang} dir={locale.dir} data-scheme={colorScheme}>
        <FailureNotice widget={widget} />
      </div>
    )
  }
  return (
    <div class="frame" part="frame" ref={frame} lang={locale.lang} dir={locale.dir} data-scheme={colorScheme}>
      <Shell
        widget={widget}
        isValidCss={isValidCss}
        label={label || widget.t('chat')}
        frame={frame}
        scroller={scroller}
        scheme={colorScheme}
      />
    </div>
  )
}

interface ShellProps {
  widget: Widget
  isValidCss: CssValidator | undefined
  label: string
  frame: { current: HTMLDivElement | null }
  scroller: { current: HTMLDivElement | null }
  scheme: string | undefined
}

/** The progress bar is a chunk of its own (progress-bar.tsx), requested when the theme enables it. */
const progressBar = lazyView('progress bar', () => import('./progress-bar').then((chunk) => chunk.ProgressBar))

/**
 * The chat's menu (Start over, the transcript's downloads) is a chunk of its own (chat-menu.tsx),
 * requested as the chat shows. A page hides it with `flow-chat::part(menu) { display: none }`.
 */
const chatMenu = lazyView('chat menu', () => import('./chat-menu').then((chunk) => chunk.ChatMenu))

function Shell({ widget, isValidCss, label, frame, scroller, scheme }: ShellProps) {
  const { conversation } = widget
  const stream = useRef<HTMLDivElement>(null)
  const theme = conversation.publishedFlow.value?.theme
  useStickToBottom(scroller, stream)
  usePreloadViews(conversation)
  // Screen readers announce what is added to a live region already on the page, not what a new
  // region holds when it appears: the region goes in empty, its announcements a moment later.
  const [regionPlaced, setRegionPlaced] = useState(false)
  useEffect(() => setRegionPlaced(true), [])
  return (
    <>
      <ThemeVarsView widget={widget} target={frame} theme={theme} isValid={isValidCss} scheme={scheme} />
      {theme?.general?.progressBar?.isEnabled && <progressBar.View widget={widget} />}
      <div class="container" part="container">
        <chatMenu.View widget={widget} />
        {/* Focusable so keyboard users can scroll back through the conversation, and where focus
            waits between an answer and the next input. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrollable region takes keyboard focus so that keyboard users can scroll it (WCAG 2.1.1); <section> would add no name */}
        <div class="scroller" part="transcript" ref={scroller} role="region" aria-label={label} tabIndex={0}>
          <div class="stream" ref={stream}>
            <RestartNotice widget={widget} />
            <TranscriptView widget={widget} />
            <LoadingIndicator widget={widget} />
            <TypingIndicator widget={widget} />
            <WaitingNotice widget={widget} />
            <HandoffNotice widget={widget} />
            <InputArea widget={widget} />
          </div>
        </div>
        <FailureNotice widget={widget} />
      </div>
      <div class="sr-only" part="live-region" aria-live="polite" aria-relevant="additions" aria-atomic="false">
        {regionPlaced && <Announcements widget={widget} />}
      </div>
    </>
  )
}
