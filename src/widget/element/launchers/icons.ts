/** The launchers' icons: drawn in the current text colour, hidden from screen readers (their buttons are named). */
const icon = (path: string) => `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${path}</svg>`

/** A speech bubble: the closed launcher. */
export const CHAT_ICON = icon(
  '<path fill="currentColor" d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z"/>',
)

/** A cross: the open launcher and the windows' close buttons. */
export const CLOSE_ICON = icon(
  '<path fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" d="M6 6l12 12M18 6 6 18"/>',
)
