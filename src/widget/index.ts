/**
 * `<flow-chat>`: an embeddable chat for published flows. Importing this module has no side
 * effects (it is safe in Node); call `defineFlowChat()` to register the element. The script
 * bundles (`dist/flow-chat.js`, `dist/flow-chat.mjs`) register it on load.
 */
import './element/global-types'
import './element/launcher-types'

export type {
  ActionContext,
  ActionOutcome,
  ActionRunner,
  ActionRunners,
  CommandError as FlowChatCommandError,
  DiagnosticCode,
  FlowChatErrorDetail,
  FlowChatEventMap,
  FlowChatEventType,
  FlowChatLogDetail,
  FlowChatScriptEventDetail,
} from './chat/index'
export { DEFAULT_ACTION_RUNNERS } from './chat/index'
export { defineFlowChatLaunchers } from './element/define-launchers'
export type { DefineOptions, FlowChatElement, FlowChatElementOptions } from './element/index'
export { createFlowChatElement, DEFAULT_TAG_NAME, defineFlowChat } from './element/index'
export type { FlowChatBubbleElement, FlowChatPopupElement } from './element/launcher-element'
export type { PrefilledVariables } from './element/properties'
export * from './embed/index'
export type { FlowChatAttributes, FlowChatBubbleAttributes, FlowChatPopupAttributes, LengthValue } from './jsx/attributes'
