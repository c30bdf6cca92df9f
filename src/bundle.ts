/**
 * Entry of the script bundles: the library, plus registering `<flow-chat>` as soon as the file
 * loads in a browser. Its exports become the one global the IIFE build defines, `FlowChat`.
 */
import { defineFlowChat } from './index'

export * from './index'

if (typeof customElements !== 'undefined') defineFlowChat()
