/**
 * The widget's stylesheet, adopted into its shadow root. Every themeable value reads a public
 * `--fc-*` property first (a host page restyles from outside), then the flow theme's private
 * `--fct-*` one, then the default, which meets WCAG AA contrast.
 */
import { ACCENT, css, v } from './css'

export { ACCENT, canAdoptSheets, css, v } from './css'

const box = (name: string, bg: string, color: string, radius = '10px') => css`
  background: ${v(`${name}-bg`, bg)};
  color: ${v(`${name}-color`, color)};
  border: ${v(`${name}-border-width`, '0px')} solid ${v(`${name}-border-color`, 'transparent')};
  border-radius: ${v(`${name}-radius`, v('radius', radius))};
  box-shadow: ${v(`${name}-shadow`, 'none')};
  backdrop-filter: ${v(`${name}-blur`, 'none')};`

const FONT = v('font-family', 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif')
const TEXT = '#303235'

/**
 * An image bubble waits hidden for its picture, and so does everything after it (image-reveal.ts).
 * `!important` so a host page's ::part() rules cannot show a row early.
 */
const WAITING_IMAGE = css`.row[hidden], .row[hidden] ~ * { display: none !important; }`

/**
 * The dark scheme before the theme's chunk brings its colours (theme/scheme.ts): a dark box from
 * the first paint, with the browser's own controls dark too.
 */
const DARK = css`color-scheme: dark; --fct-background: #15171b; --fct-container-color: #e8eaed;`

/**
 * The views' stylesheet, in the chat view's chunk with them. The element's own box (its size, its
 * reset, its first paint in the dark scheme) is the core's: element/stylesheets.ts.
 */
export const BASE_CSS = css`
:host {
  font-family: ${FONT};
  color: ${v('container-color', TEXT)};
}
*, *::before, *::after { box-sizing: border-box; }
.frame {
  position: relative;
  display: flex;
  justify-content: center;
  width: 100%;
  height: 100%;
  overflow: hidden;
  /* Again here: the theme's private properties are set on this element, below :host. */
  font-family: ${FONT};
  background: ${v('background', '#ffffff')};
}
.frame[data-scheme="dark"] { ${DARK} }
@media (prefers-color-scheme: dark) { .frame[data-scheme="auto"] { ${DARK} } }
.container {
  position: relative;
  display: flex;
  flex-direction: column;
  width: 100%;
  height: 100%;
  max-width: ${v('container-max-width', '800px')};
  max-height: ${v('container-max-height', '100%')};
  ${box('container', 'transparent', 'inherit')}
}
.scroller { flex: 1; overflow-y: auto; overscroll-behavior: contain; padding: 16px 12px 24px; }
.scroller:focus-visible { outline-offset: -2px; }
.stream { display: flex; flex-direction: column; gap: 8px; }
.row { display: flex; align-items: flex-end; gap: 8px; max-width: 100%; }
.row.guest { justify-content: flex-end; }
.row.enter { animation: fc-enter 0.2s ease-out; }
.avatar {
  flex: none;
  width: var(--fc-avatar-size, 32px);
  height: var(--fc-avatar-size, 32px);
  border-radius: 50%;
  object-fit: cover;
  background: #e5e7eb;
}
.text-avatar { display: grid; place-items: center; font-size: 20px; line-height: 1; background: none; }
.bubble, .field {
  /* Each paragraph runs the way its own words do: an English message reads right in an Arabic chat. */
  unicode-bidi: plaintext;
}
.bubble {
  min-width: 0;
  max-width: min(85%, 640px);
  padding: 8px 14px;
  overflow-wrap: anywhere;
  white-space: pre-wrap;
}
.bubble.host { ${box('host-bubble', '#eef1f6', TEXT, '16px')} }
.bubble.guest { ${box('guest-bubble', ACCENT, '#ffffff', '16px')} }
.bubble.media { padding: 4px; }
.rt { white-space: normal; }
.rt p, .rt ul, .rt ol, .rt blockquote, .rt pre { margin: 0; }
.rt p { min-height: 1.5em; white-space: pre-wrap; }
.rt ul, .rt ol { padding-inline-start: 1.4em; }
.rt .rt-h1, .rt .rt-h2, .rt .rt-h3, .rt h1, .rt h2, .rt h3 { font-weight: 700; font-size: 1.15em; margin: 0; }
.rt a, .bubble a { color: inherit; text-decoration: underline; }
.rt img { max-width: 100%; height: auto; }
.media img { display: block; max-width: 100%; height: auto; border-radius: inherit; }
${WAITING_IMAGE}
.image-missing { display: block; padding: 10px 12px; border: 1px dashed currentColor; border-radius: inherit; font-style: italic; }
.guest-wrap { display: flex; flex-direction: column; align-items: flex-end; max-width: min(85%, 640px); }
.guest-wrap .bubble { max-width: 100%; }
.bubble[data-status="sending"] { opacity: 0.7; }
.bubble[data-status="failed"], .bubble[data-status="rejected"] { opacity: 0.85; }
.status { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin-top: 4px; font-size: 14px; color: ${v('error', '#b91c1c')}; }
.status.waiting { color: inherit; }
.typing { display: inline-flex; gap: 4px; padding: 12px 14px; }
.typing span { width: 7px; height: 7px; border-radius: 50%; background: currentColor; opacity: 0.5; animation: fc-dot 1s infinite ease-in-out; }
.typing span:nth-child(2) { animation-delay: 0.15s; }
.typing span:nth-child(3) { animation-delay: 0.3s; }
.input-row { display: flex; justify-content: flex-end; align-items: flex-end; gap: 8px; margin-top: 4px; flex-wrap: wrap; }
.field {
  flex: 1 1 200px;
  min-width: 0;
  min-height: 44px;
  padding: 10px 12px;
  font: inherit;
  resize: vertical;
  ${box('input', '#ffffff', TEXT)}
  border-width: ${v('input-border-width', '1px')};
  border-color: ${v('input-border-color', '#8a8f98')};
}
textarea.field { min-height: 88px; }
.field::placeholder { color: ${v('input-placeholder', '#6b7280')}; opacity: 1; }
.button {
  min-height: 44px;
  padding: 8px 16px;
  font: inherit;
  font-weight: 600;
  cursor: pointer;
  ${box('button', ACCENT, '#ffffff')}
}
.button:hover:not(:disabled) { filter: brightness(0.92); }
.button:disabled { cursor: not-allowed; opacity: 0.55; }
.button.small { min-height: 32px; padding: 4px 12px; font-size: 14px; }
.notice {
  margin: 8px 12px 12px;
  padding: 12px 14px;
  border: 1px solid #b91c1c;
  border-radius: 8px;
  background: #fef2f2;
  color: #7f1d1d;
}
.notice p { margin: 0 0 8px; }
.notice p:last-child { margin: 0; }
.notice.calm { border-color: rgba(127, 127, 127, 0.4); background: rgba(127, 127, 127, 0.1); color: inherit; }
/* A chat that cannot run as the page set it up is its notice alone: its box shrinks to it. */
:host(:state(unavailable)) { height: auto; }
:focus-visible { outline: 2px solid ${v('focus-ring', ACCENT)}; outline-offset: 2px; }
.sr-only {
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  overflow: hidden;
  clip-path: inset(50%);
  white-space: nowrap;
  border: 0;
}
@keyframes fc-enter { from { opacity: 0; transform: translateY(6px); } }
@keyframes fc-dot { 0%, 80%, 100% { transform: translateY(0); } 40% { transform: translateY(-4px); } }
@media (prefers-reduced-motion: reduce) {
  .row.enter, .typing span { animation: none; }
}
`
