import { type FlowChatHandle, initBubble, initPopup, initStandard } from './init'

/**
 * `<script src=…/flow-chat.js data-flow=… data-api-host=… data-token=… data-mode=…>`: embeds the
 * flow with no other code. Only a classic script knows its own tag (`document.currentScript`),
 * which is why the module build does not do this. A standard chat goes right after the tag when
 * the tag is in the body, else at the end of the body. Returns nothing without `data-flow`.
 * (In the core, not a chunk: waiting for one here delayed the first bubble by a round trip.)
 */
export function autoEmbed(script: HTMLOrSVGScriptElement | null): Promise<FlowChatHandle> | undefined {
  const data = script?.dataset
  if (!data?.flow) return undefined
  const mode = (data.mode ?? 'standard').trim().toLowerCase()
  const init = mode === 'bubble' ? initBubble : mode === 'popup' ? initPopup : initStandard
  if (init === initStandard && mode !== 'standard') console.warn(`[flow-chat] unknown data-mode "${mode}": using "standard"`)
  // The `data-*` attributes as they are: the element's own table reads what it knows of them.
  const options = { ...data, flow: data.flow }
  // A script in `<head>` without `defer` runs before `<body>` exists.
  return new Promise((bodyReady) =>
    document.body ? bodyReady(0) : document.addEventListener('DOMContentLoaded', bodyReady, { once: true }),
  ).then(() => {
    const handle: FlowChatHandle = init(options)
    if (init === initStandard && document.body.contains(script)) script!.after(handle.element)
    return handle
  })
}
