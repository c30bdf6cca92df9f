import { initBubble, initPopup, initStandard, type FlowChatHandle } from './init'

const MODES = ['standard', 'bubble', 'popup'] as const
type Mode = (typeof MODES)[number]

/**
 * `<script src=…/flow-chat.js data-flow=… data-api-host=… data-token=… data-mode=…>`: embeds the
 * flow with no other code. Only a classic script knows its own tag (`document.currentScript`),
 * which is why the module build does not do this. A standard chat goes right after the tag when
 * the tag is in the body, else at the end of the body. Returns nothing without `data-flow`.
 */
export function autoEmbed(script: HTMLOrSVGScriptElement | null): Promise<FlowChatHandle> | undefined {
  if (typeof HTMLScriptElement === 'undefined' || !(script instanceof HTMLScriptElement) || !script.dataset.flow) return undefined
  const requested = (script.dataset.mode ?? 'standard').trim().toLowerCase()
  const mode: Mode = (MODES as readonly string[]).includes(requested) ? (requested as Mode) : 'standard'
  if (mode !== requested) console.warn(`[flow-chat] unknown data-mode "${requested}": using "standard"`)
  // The `data-*` attributes as they are: the element's own table reads what it knows of them.
  const options = { ...script.dataset, flow: script.dataset.flow }
  return whenBodyReady().then(() => {
    if (mode === 'bubble') return initBubble(options)
    if (mode === 'popup') return initPopup(options)
    const inBody = script.isConnected && document.body.contains(script)
    const handle = initStandard(options)
    if (inBody) script.after(handle.element)
    return handle
  })
}

/** A script in `<head>` without `defer` runs before `<body>` exists. */
function whenBodyReady(): Promise<void> {
  if (document.body) return Promise.resolve()
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }))
}
