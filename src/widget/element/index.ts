export { DEFAULT_TAG_NAME, defineFlowChat, type DefineOptions } from './define'
export { createFlowChatElement, type FlowChatElement, type FlowChatElementOptions } from './flow-chat-element'
