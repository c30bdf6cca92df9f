import { canAdoptSheets, css } from '../../ui/css'

/** The launcher's stylesheet on its shadow root (see `canAdoptSheets`). */
export function adoptCss(root: ShadowRoot, text: string): void {
  if (canAdoptSheets(root)) {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(text)
    root.adoptedStyleSheets = [sheet]
    return
  }
  const style = document.createElement('style')
  style.textContent = text
  root.prepend(style)
}

/**
 * Rules for the dark scheme (`color-scheme="dark"`, or `auto` when the visitor's system is dark):
 * `rule` gets the host selector to write them under.
 */
const dark = (rule: (host: string) => string) =>
  `${rule(':host([color-scheme=dark])')}@media (prefers-color-scheme:dark){${rule(':host([color-scheme=auto])')}}`

/** The header both launchers put above the chat: a title and a close button. */
export const HEADER_CSS = css`
.header{display:flex;align-items:center;gap:8px;padding-block:8px;padding-inline:16px 8px;background:var(--fc-launcher-bg,var(--fc-theme-bg,#0042da));color:var(--fc-launcher-color,var(--fc-theme-color,#fff));font:600 15px/1.3 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.title{flex:1;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;margin:0;font:inherit}
.close{width:36px;height:36px;border:0;border-radius:8px;background:transparent;color:inherit;cursor:pointer;display:grid;place-items:center;padding:0}
.close svg{width:20px;height:20px}
.close:hover{background:rgba(255,255,255,.18)}
button:focus-visible{outline:3px solid var(--fc-launcher-focus,var(--fc-launcher-bg,var(--fc-theme-bg,#0042da)));outline-offset:2px;box-shadow:0 0 0 2px #fff}
.close:focus-visible{outline-color:currentColor;outline-offset:-4px;box-shadow:none}
flow-chat{display:block;flex:1;min-height:0;height:auto;width:100%}
`

export const BUBBLE_CSS = css`${HEADER_CSS}
:host{all:initial;display:block;position:fixed;z-index:var(--fc-bubble-z-index,1000);--size:var(--fc-bubble-size,48px);--gap:var(--fc-bubble-offset,20px);--below:var(--fc-viewport-bottom,0px);bottom:calc(var(--gap) + var(--below));right:var(--gap);left:auto;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
/* The page's end corner unless placed: the left one on a right-to-left page. */
:host([placement=left]),:host(:dir(rtl):not([placement=right])){right:auto;left:var(--gap)}
.launcher{width:var(--size);height:var(--size);border-radius:50%;border:0;padding:0;background:var(--fc-launcher-bg,var(--fc-theme-bg,#0042da));color:var(--fc-launcher-color,var(--fc-theme-color,#fff));cursor:pointer;display:grid;place-items:center;box-shadow:0 2px 12px rgba(0,0,0,.25);transition:transform .15s}
.launcher:hover{transform:scale(1.06)}
.launcher[data-icon=close] svg{width:45%;height:45%}
.launcher svg,.launcher img{width:55%;height:55%;object-fit:contain}
.window{position:fixed;display:flex;flex-direction:column;right:var(--gap);bottom:calc(var(--gap) + var(--below) + var(--size) + 12px);width:min(var(--fc-bubble-max-width,400px),calc(100vw - 2 * var(--gap)));height:min(var(--fc-bubble-max-height,704px),calc(var(--fc-viewport-height,100dvh) - var(--size) - 2 * var(--gap) - 12px));background:#fff;border-radius:12px;box-shadow:0 8px 32px rgba(0,0,0,.25);overflow:hidden}
:host([placement=left]) .window,:host(:dir(rtl):not([placement=right])) .window{right:auto;left:var(--gap)}
.preview{position:absolute;bottom:calc(var(--size) + 12px);right:0;display:flex;align-items:flex-start;gap:8px;width:max-content;max-width:min(280px,calc(100vw - 2 * var(--gap)));padding:12px;background:#fff;color:#303235;border-radius:10px;box-shadow:0 4px 18px rgba(0,0,0,.18);font-size:15px;line-height:1.4}
:host([placement=left]) .preview,:host(:dir(rtl):not([placement=right])) .preview{right:auto;left:0}
.preview-text{all:unset;cursor:pointer;flex:1}
.preview-text:focus-visible{outline:3px solid var(--fc-launcher-focus,var(--fc-launcher-bg,var(--fc-theme-bg,#0042da)));outline-offset:2px}
.preview img{width:32px;height:32px;border-radius:50%;object-fit:cover}
.dismiss{flex:none;display:grid;place-items:center;width:24px;height:24px;border:0;border-radius:50%;background:#eceef2;color:#303235;cursor:pointer;padding:0}
.dismiss svg{width:12px;height:12px}
[hidden]{display:none!important}
${dark((host) => `${host} .window,${host} .preview{background:#15171b;color:#e8eaed}${host} .dismiss{background:#2c3038;color:#e8eaed}`)}
/* A phone: the window fills the screen, whichever corner the launcher is in. */
@media (max-width:480px){.window{left:0!important;right:0!important;width:100%;top:var(--fc-viewport-top,0px);bottom:auto;height:var(--fc-viewport-height,100dvh);border-radius:0}:host([open]) .launcher{visibility:hidden}}
`

export const POPUP_CSS = css`${HEADER_CSS}
:host{all:initial;display:contents}
dialog{display:flex;flex-direction:column;padding:0;border:0;border-radius:12px;width:min(var(--fc-popup-max-width,560px),calc(100vw - 32px));height:min(var(--fc-popup-max-height,680px),calc(100dvh - 32px));max-width:none;max-height:none;overflow:hidden;background:#fff;box-shadow:0 12px 48px rgba(0,0,0,.3)}
dialog:not([open]){display:none}
dialog::backdrop{background:rgba(15,18,25,.55)}
${dark((host) => `${host} dialog{background:#15171b}`)}
.sentinel{position:fixed;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
`
