import type { Conversation, Emit } from '../chat/index'
import type { Locale } from '../i18n/locale'
import type { StringId, Words } from '../i18n/strings'

/**
 * What every view of one chat works with, handed down as the `widget` prop (a context would cost
 * the core more than the props do). App makes it once per conversation, so a view's props stay
 * equal between renders and @preact/signals can skip it (see bubbles.tsx).
 */
export interface Widget {
  conversation: Conversation
  emit: Emit
  /**
   * The flow service's address (the element's `api-host`; none: the page's origin). A flow's
   * relative media addresses (`/assets/avatar.svg`) are the service's, so they resolve against it,
   * never against the host page.
   */
  base: string | undefined
  /** The chat's language and direction (Intl formats dates and numbers in `locale.lang`). */
  locale: Locale
  /** The chat's text `id` in its language, `{name}` filled from `values` (see i18n/locale.ts). */
  t(id: StringId, values?: Record<string, string | number>): string
  /** Words another layer chose (a failure's), in the chat's language when they are one of its strings. */
  say(words: Words): string
  /**
   * Puts focus on the transcript, without scrolling the page: where it waits while the control the
   * visitor used (an input that was answered, a Retry button) goes away and the next one comes.
   */
  focusTranscript(): void
  /** Whether focus is somewhere in this chat: only then may a new input take it. */
  hasFocus(): boolean
}

/** Props of a view that works with its chat. */
export interface WidgetProps {
  widget: Widget
}
