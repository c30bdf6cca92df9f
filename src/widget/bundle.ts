/**
 * Entry of the script bundles: the library, plus registering `<flow-chat>` (and the bubble and
 * popup) as soon as the file loads in a browser. Its exports become the one global the IIFE build
 * defines, `FlowChat`. A classic script tag with `data-flow` also embeds that flow.
 */
import { autoEmbed, defineFlowChatLaunchers } from './index'

export * from './index'

if (typeof customElements !== 'undefined') {
  defineFlowChatLaunchers()
  // `currentScript` is only set while a classic script first runs (null in a module).
  void autoEmbed(document.currentScript)?.catch((error: unknown) => console.error('[flow-chat]', error))
}
