export { autoEmbed } from './auto-embed'
export { initBubble, initPopup, initStandard, type BubbleHandle, type FlowChatHandle } from './init'
export type { BubbleEmbedOptions, CommonEmbedOptions, PopupEmbedOptions, StandardEmbedOptions } from './options'
