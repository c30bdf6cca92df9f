/**
 * `<flow-chat>`: an embeddable chat for published flows. Importing this module has no side
 * effects (it is safe in Node); call `defineFlowChat()` to register the element. The script
 * bundles (`dist/flow-chat.js`, `dist/flow-chat.mjs`) register it on load.
 */
import './element/global-types'

export { DEFAULT_TAG_NAME, createFlowChatElement, defineFlowChat } from './element/index'
export type { DefineOptions, FlowChatElement, FlowChatElementOptions } from './element/index'
export { DEFAULT_ACTION_RUNNERS } from './chat/index'
export type {
  ActionContext,
  ActionOutcome,
  ActionRunner,
  ActionRunners,
  DiagnosticCode,
  FlowChatErrorDetail,
  FlowChatEventMap,
  FlowChatEventType,
  FlowChatLogDetail,
} from './chat/index'
