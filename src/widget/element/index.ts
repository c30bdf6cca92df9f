export { DEFAULT_TAG_NAME, type DefineOptions, defineFlowChat } from './define'
export { createFlowChatElement, type FlowChatElement, type FlowChatElementOptions } from './flow-chat-element'
