/*
 * A module of its own: the chat's views (bubbles.tsx) and the AI answer's chunk both show it, and
 * importing it from bubbles.tsx took the bubbles, avatars and message views into that chunk.
 */

/** Tries a failed answer again (the visitor's, or an AI answer). */
export function RetryButton({ label, onRetry }: { label: string; onRetry(): void }) {
  return (
    <button
      type="button"
      class="button small"
      part="button retry-button"
      onClick={(event) => {
        // The button goes away with the failure: focus waits on the transcript it is in (as
        // Widget.focusTranscript does; found from here, so an AI answer's view needs no widget).
        event.currentTarget.closest<HTMLElement>('.scroller')?.focus({ preventScroll: true })
        onRetry()
      }}
    >
      {label}
    </button>
  )
}
