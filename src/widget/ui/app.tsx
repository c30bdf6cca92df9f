import { computed } from '@preact/signals'
import { useMemo, useRef } from 'preact/hooks'
import type { Conversation, Emit } from '../chat/index'
import { TypingIndicator } from './bubbles'
import { InputArea } from './inputs/input-area'
import { LiveRegion } from './live-region'
import { ProgressBar } from './progress-bar'
import { FailureNotice, LoadingIndicator, RestartNotice } from './status-views'
import { browserCssValidator, type CssValidator } from './theme/css-values'
import { themeLayout } from './theme/theme-vars'
import { TranscriptView } from './transcript-view'
import { useStickToBottom } from './use-stick-to-bottom'
import { useThemeVars } from './use-theme-vars'
import { WidgetContext, useWidget, type WidgetContextValue } from './widget-context'

export interface AppProps {
  conversation: Conversation
  emit: Emit
  /** The chat's accessible name (the transcript region's); default "Chat". */
  label?: string
  /** Defaults to the browser's `CSS.supports`. */
  isValidCss?: CssValidator
}

/** The whole chat UI for one conversation. */
export function App({ conversation, emit, label = 'Chat', isValidCss = browserCssValidator }: AppProps) {
  const context = useMemo<WidgetContextValue>(
    () => ({
      conversation,
      emit,
      layout: computed(() => themeLayout(conversation.publishedFlow.value?.theme)),
      focusNext: { current: false },
    }),
    [conversation, emit],
  )
  return (
    <WidgetContext.Provider value={context}>
      <Shell isValidCss={isValidCss} label={label} />
    </WidgetContext.Provider>
  )
}

function Shell({ isValidCss, label }: { isValidCss: CssValidator; label: string }) {
  const { conversation, emit } = useWidget()
  const frame = useRef<HTMLDivElement>(null)
  const scroller = useRef<HTMLDivElement>(null)
  const stream = useRef<HTMLDivElement>(null)
  useThemeVars(frame, conversation.publishedFlow.value?.theme, isValidCss, emit)
  useStickToBottom(scroller, stream)
  return (
    <div class="frame" part="frame" ref={frame}>
      <ProgressBar />
      <div class="container" part="container">
        {/* Focusable so keyboard users can scroll back through the conversation. */}
        <div class="scroller" part="transcript" ref={scroller} role="region" aria-label={label} tabIndex={0}>
          <div class="stream" ref={stream}>
            <RestartNotice />
            <TranscriptView />
            <LoadingIndicator />
            <TypingIndicator />
            <InputArea />
          </div>
        </div>
        <FailureNotice />
      </div>
      <LiveRegion />
    </div>
  )
}
