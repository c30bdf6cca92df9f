export { autoEmbed } from './auto-embed'
export { type BubbleHandle, type FlowChatHandle, initBubble, initPopup, initStandard } from './init'
export type { BubbleEmbedOptions, CommonEmbedOptions, PopupEmbedOptions, StandardEmbedOptions } from './options'
